import type { AnswerRecord, AnswerSource, AnswerSurface, CallerKind, UnansweredReason } from '../analytics/index.js';
import type { ThreadAppend, ThreadExchange, ThreadRef } from '../threads/index.js';

/** Who asked what, through which door: what an answer's completion keeps beside the answer. */
export interface AnswerTrace {
  /** The answer's message id (or the completion's id on the stateless doors): the exchange's `messageId`, the answer record's `id`. */
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

/**
 * One answer as the writer thread stores it: the union of what its thread exchange and its
 * analytics answer record keep, each field once (the answer's text is the largest part of both),
 * so handing it to the thread copies every string once.
 */
export interface StoredCompletion extends AnswerTrace {
  /** When analytics counts it (the recorder's clock). */
  at: number;
  answer: string;
  /** The cited pages; the exchange keeps them only when the answer completed. */
  sources: AnswerSource[];
  mode: 'model' | 'extractive';
  outcome: ThreadExchange['outcome'];
  error: string | undefined;
  startedAt: string;
  finishedAt: string;
  unansweredReason: UnansweredReason | null;
  category: string | null;
  /** Where the exchange is kept; undefined on the stateless doors. */
  thread: ThreadRef | undefined;
  /** The exchange of the thread this answer answers again (AI SDK `regenerate`); usually undefined. */
  replacing?: string | undefined;
}

/** The thread exchange of a completion kept in a thread, field by field. */
export function threadAppendOf(c: StoredCompletion & { thread: ThreadRef }): ThreadAppend {
  const exchange: ThreadExchange = {
    messageId: c.id,
    question: c.question,
    answer: c.answer,
    sources: c.outcome === 'complete' ? c.sources : [],
    fp: c.fp ?? '',
    mode: c.mode,
    outcome: c.outcome,
    ...(c.error ? { error: c.error } : {}),
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
  };
  return { ref: c.thread, exchange, replacing: c.replacing };
}

/** The analytics answer record of a completion. */
export function answerRecordOf(c: StoredCompletion): AnswerRecord {
  return {
    id: c.id,
    orgId: c.orgId,
    domainId: c.domainId,
    threadId: c.threadId,
    question: c.question,
    surface: c.surface,
    caller: c.caller,
    fp: c.fp,
    currentPath: c.currentPath,
    at: c.at,
    answer: c.answer,
    sources: c.sources,
    mode: c.mode,
    resolution: c.unansweredReason ? 'unanswered' : 'answered',
    unansweredReason: c.unansweredReason,
    category: c.category,
  };
}
