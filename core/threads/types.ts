/**
 * Assistant conversations. A thread belongs to one organisation: the store is
 * addressed by (orgId, threadId), so the same id sent with another org's key
 * names a different, empty thread and nothing leaks across organisations.
 */
import type { InferOutput } from 'valibot';
import type { ThreadExchangeSchema, ThreadSourceSchema, ThreadTranscriptSchema } from './thread-schema.js';

// The thread's shape is declared once, as valibot schemas in thread-schema.ts; these are its types.
export type ThreadSource = InferOutput<typeof ThreadSourceSchema>;
/** One question and its answer, as streamed (a failed or cut answer is kept as far as it got). */
export type ThreadExchange = InferOutput<typeof ThreadExchangeSchema>;
export type ThreadTranscript = InferOutput<typeof ThreadTranscriptSchema>;

export interface ThreadRef {
  orgId: string;
  threadId: string;
  domainId: string;
  /** Stored with the thread when the first exchange creates it. */
  keyHash?: string;
}

export interface ThreadStore {
  /** The thread of this organisation, or undefined (unknown, expired or another org's). */
  load(orgId: string, threadId: string): Promise<ThreadTranscript | undefined>;
  /** Appends an exchange, creating the thread on first use; renews its retention. */
  append(ref: ThreadRef, exchange: ThreadExchange): Promise<void>;
  /** Appends several exchanges in order, as one write where the store has transactions. */
  appendAll(entries: ThreadAppend[]): Promise<void>;
  /**
   * Removes the domain's thread of this organisation at once, on request: its exchanges and what
   * analytics recorded of it (answers, ratings); the daily counts, which name no one, stay.
   * False when there was none of it.
   */
  erase(ref: Omit<ThreadRef, 'keyHash'>): Promise<boolean>;
  /**
   * Removes at once, in one transaction, what one reader (by the fingerprint their client sends)
   * left on the domain: its threads carrying the fingerprint with their exchanges, the answer
   * records carrying it or of those threads, and those threads' ratings (see eraseReaderIn).
   */
  eraseReader(ref: ReaderRef): Promise<ReaderErasure>;
}

/** Whose conversations to erase: the reader's fingerprint (`fp`) on one domain of the organisation. */
export interface ReaderRef {
  orgId: string;
  domainId: string;
  fp: string;
}

/** What a reader's erasure deleted. */
export interface ReaderErasure {
  threads: number;
  answers: number;
  feedback: number;
}

/** One exchange to append to its thread. */
export interface ThreadAppend {
  ref: ThreadRef;
  exchange: ThreadExchange;
  /** The exchange this one answers again (a regenerated answer): it and every later one leave the thread. */
  replacing?: string | undefined;
}

export const DAY_MS = 86_400_000;
