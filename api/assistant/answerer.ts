import type { AnswerSurface, CallerKind } from '../../core/analytics/index.js';
import type { Domain } from '../../core/tenants/index.js';
import type { Citation, Usage } from './answer-writer.js';
import type { AssistantPrompt } from './prompt.js';

/** One answer being produced: its text as it comes (`[n]` markers as written), and the tokens it cost once done. */
export interface AnswerRun {
  deltas: AsyncIterable<string>;
  usage(): Usage;
}

/** Who asked what, through which door: what the completion record keeps beside the answer. */
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
  question: string;
  prompt: AssistantPrompt;
  /** One per page, in the order of the prompt's page numbers. */
  citations: Citation[];
  domain: Pick<Domain, 'supportContact'>;
  signal: AbortSignal;
  /** The asking organisation: a metric label only when the operator turns it on. */
  orgId?: string;
  /**
   * A search the model may run of its own (see `modelAnswerer`): the answer service runs it
   * within its budget, streams it as a `search` tool part, and returns what the model reads.
   */
  search?: (query: string, toolCallId: string) => Promise<string>;
}

/** Produces answers: a language model, or the extractive mode when none is configured. */
export interface Answerer {
  readonly mode: 'model' | 'extractive';
  answer(input: AnswerInput): AnswerRun;
}
