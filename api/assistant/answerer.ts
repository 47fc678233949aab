import type { AnswerSurface, CallerKind } from '../../core/analytics/index.js';
import type { Domain } from '../../core/tenants/index.js';
import type { Citation, Usage } from './answer-writer.js';
import type { AssistantPrompt } from './prompt.js';

/** One answer being produced: its text as it comes, and the tokens it cost once done. */
export interface AnswerRun {
  deltas: AsyncIterable<string>;
  usage(): Usage;
}

/** What analytics records about an answer beyond the answer itself (see `recordingAnswerer`). */
export interface AnswerTrace {
  /** The answer's message id (or the completion's id on the stateless doors). */
  id: string;
  orgId: string;
  domainId: string;
  threadId: string | null;
  question: string;
  surface: AnswerSurface;
  caller: CallerKind;
  fp: string | null;
  currentPath: string | null;
}

export interface AnswerInput {
  prompt: AssistantPrompt;
  citations: Citation[];
  domain: Pick<Domain, 'supportContact'>;
  signal: AbortSignal;
  /** Present when the answer is to be recorded. */
  trace?: AnswerTrace | undefined;
}

/** Produces answers: a language model, or the extractive mode when none is configured. */
export interface Answerer {
  readonly mode: 'model' | 'extractive';
  answer(input: AnswerInput): AnswerRun;
}
