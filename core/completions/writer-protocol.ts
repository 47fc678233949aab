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

/** To the writer thread: a batch to store (numbered from 1 on), or the order to close once done. */
export type ToWriter = { kind: 'batch'; seq: number; completions: StoredCompletion[]; replay: boolean } | { kind: 'close' };

/**
 * From the writer thread: every batch up to `seq` is stored (or, after an error that is not an
 * outage, given up and logged), with the kind and duration of each statement the round ran, in
 * pairs; or a line for the API's log.
 */
export type FromWriter =
  | { kind: 'stored'; seq: number; queries: Array<QueryOperation | number> }
  | { kind: 'log'; level: 'warn' | 'error'; fields: Record<string, unknown>; message: string };
