import type { DatabaseTarget } from '../db/index.js';
import type { QueryOperation } from '../db/instrumented-dialect.js';
import type { StoredCompletion } from './completion.js';

/** What the writer thread is started with: where the database is and how long writes wait for it. */
export interface WriterSettings {
  database: DatabaseTarget;
  poolSize: number;
  threadRetentionDays: number;
  retryForMs: number;
}

/**
 * To the writer thread: a batch to store (numbered from 1 on), a flush (write the answer records
 * held back now), or the order to close once everything is written.
 */
export type ToWriter = { kind: 'batch'; seq: number; completions: StoredCompletion[]; replay: boolean } | { kind: 'flush' } | { kind: 'close' };

/**
 * From the writer thread, with the kind and duration of each statement run since its last message,
 * in pairs: `settled`, the thread exchanges of every batch up to `seq` are committed; `stored`, their
 * answer records too (each also once a write that is not an outage was given up and logged); or a
 * line for the API's log.
 */
export type FromWriter =
  | { kind: 'settled' | 'stored'; seq: number; queries: Array<QueryOperation | number> }
  | { kind: 'log'; level: 'warn' | 'error'; fields: Record<string, unknown>; message: string };
