import type { Domain } from '../../core/tenants/index.js';
import type { Citation, Usage } from './answer-writer.js';
import type { AssistantPrompt } from './prompt.js';

/** One answer being produced: its text as it comes, and the tokens it cost once done. */
export interface AnswerRun {
  deltas: AsyncIterable<string>;
  usage(): Usage;
}

export interface AnswerInput {
  prompt: AssistantPrompt;
  citations: Citation[];
  domain: Pick<Domain, 'supportContact'>;
  signal: AbortSignal;
}

/** Produces answers: a language model, or the extractive mode when none is configured. */
export interface Answerer {
  readonly mode: 'model' | 'extractive';
  answer(input: AnswerInput): AnswerRun;
}
