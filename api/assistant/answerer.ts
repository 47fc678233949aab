import type { AnswerTrace } from '../../core/completions/index.js';
import type { Vocabulary } from '../../core/retrieval/index.js';
import type { Domain } from '../../core/tenants/index.js';
import type { Citation, Usage } from './answer-writer.js';
import type { AssistantPrompt } from './prompt.js';

export type { AnswerTrace };

/** One answer being produced: its text as it comes (`[n]` markers as written), and the tokens it cost once done. */
export interface AnswerRun {
  deltas: AsyncIterable<string>;
  usage(): Usage;
  /** The extractive mode's word: false when nothing in the pages found meets the question (it says so, and the answer counts as unanswered). */
  matched?: boolean;
}

export interface AnswerInput {
  question: string;
  prompt: AssistantPrompt;
  /** One per page, in the order of the prompt's page numbers. */
  citations: Citation[];
  domain: Pick<Domain, 'supportContact' | 'language'>;
  /**
   * The words of every page of the domain the reader may see (see `DocIndex.vocabulary`), when the index keeps
   * them at hand: the extractive mode declines a question that asks about a word no such page holds.
   */
  vocabulary?: Vocabulary | undefined;
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
