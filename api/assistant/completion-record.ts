import type { UnansweredReason } from '../../core/analytics/index.js';
import type { StoredCompletion } from '../../core/completions/index.js';
import type { ThreadExchange, ThreadRef, ThreadSource } from '../../core/threads/index.js';
import type { Citation } from './answer-writer.js';
import type { AnswerTrace, Answerer } from './answerer.js';

/**
 * One answer as it ended, on any door: what the thread keeps of it and what
 * analytics counts are both read from this one record.
 */
export interface CompletionRecord {
  trace: AnswerTrace;
  /** Where the exchange is kept; undefined on the stateless doors and when the thread store was out of reach. */
  thread: ThreadRef | undefined;
  /** The thread's exchange this answer replaces (a regenerated answer). */
  replacing?: string | undefined;
  /** The text as the reader got it, citation links included. */
  answer: string;
  citations: Citation[];
  mode: Answerer['mode'];
  outcome: ThreadExchange['outcome'];
  /** What the reader was told when the answer failed. */
  error?: string | undefined;
  startedAt: string;
  finishedAt: string;
  /** False when the extractive mode found nothing in its pages that meets the question. */
  matched?: boolean | undefined;
}

const CITATION_MARKER = /\[\d+\]/;

/**
 * Whether an answer answered. Without passages nothing could; a model that
 * cites none of the passages it was given has said the docs do not cover the
 * question (its instructions require a citation for every statement and
 * allow none only then); an answer that broke off did not answer. The
 * extractive mode quotes passages that meet the question; when none does
 * (`matched` false) it says the docs do not seem to cover it.
 */
export function unansweredReason(mode: Answerer['mode'], citations: Citation[], answer: string, completed: boolean, matched = true): UnansweredReason | null {
  if (citations.length === 0) return 'no_passages';
  if (!completed) return 'failed';
  if (mode === 'extractive' && !matched) return 'no_match';
  if (mode === 'model' && !CITATION_MARKER.test(answer)) return 'no_citation';
  return null;
}

/** The first path segment of the best source: `/guides/deploy` → `guides`; a page at the root is its own category. */
export function categoryOf(citations: Citation[]): string | null {
  const best = citations[0];
  if (!best) return null;
  return best.path.split('/').find((segment) => segment.length > 0) ?? null;
}

/** The citations as both records keep them. */
function sourcesOf(citations: Citation[]): ThreadSource[] {
  const sources: ThreadSource[] = new Array(citations.length);
  for (let i = 0; i < citations.length; i++) {
    const { title, url, path } = citations[i]!;
    sources[i] = { title, url, path };
  }
  return sources;
}

/**
 * What the writer stores of one answer, stamped `at` by the recorder's clock: its thread exchange
 * and its analytics record are both made from it in the writer's thread. Written field by field:
 * spreading the trace cost more than the rest together.
 */
export function storedCompletionOf(c: CompletionRecord, at: number): StoredCompletion {
  const { trace } = c;
  return {
    id: trace.id,
    orgId: trace.orgId,
    domainId: trace.domainId,
    threadId: trace.threadId,
    question: trace.question,
    surface: trace.surface,
    caller: trace.caller,
    fp: trace.fp,
    currentPath: trace.currentPath,
    at,
    answer: c.answer,
    sources: sourcesOf(c.citations),
    mode: c.mode,
    outcome: c.outcome,
    error: c.error,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    unansweredReason: unansweredReason(c.mode, c.citations, c.answer, c.outcome === 'complete', c.matched),
    category: categoryOf(c.citations),
    thread: c.thread,
    replacing: c.replacing,
  };
}
