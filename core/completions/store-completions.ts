import { setTimeout as sleep } from 'node:timers/promises';
import type { AnalyticsStore } from '../analytics/index.js';
import { UnavailableError } from '../errors.js';
import type { ThreadAppend, ThreadStore } from '../threads/index.js';
import { answerRecordOf, threadAppendOf, type StoredCompletion } from './completion.js';

/** Where a batch of completions goes: the threads' exchanges and the analytics answer records. */
export interface CompletionStores {
  threads: Pick<ThreadStore, 'appendAll' | 'load'>;
  analytics: Pick<AnalyticsStore, 'write'>;
}

/** What the writer has to say, at the level the API's logger writes it. */
export interface WriterLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface StoreOptions {
  /** How long a write waits for a database that is unavailable before it is given up (and logged). */
  retryForMs: number;
  log: WriterLog;
  /**
   * The batch may have been committed already by a writer that stopped before it said so: its
   * exchanges already in their threads are not appended again (answer records are idempotent).
   */
  replay?: boolean;
}

/**
 * Writes a batch of completions in the order the answers ended: their thread exchanges in one
 * transaction, then their answer records (with the daily counts) in another. A database that is
 * down or busy is waited out, a pause that doubles up to 5 s, for `retryForMs` at most: the answers
 * were sent, their records must not be lost to an outage. Another error gives that write up.
 */
export async function storeCompletions(stores: CompletionStores, batch: readonly StoredCompletion[], options: StoreOptions): Promise<void> {
  const givingUpAt = Date.now() + options.retryForMs;
  const { log } = options;
  let appends: ThreadAppend[] = [];
  for (const c of batch) if (c.thread) appends.push(threadAppendOf({ ...c, thread: c.thread }));
  if (appends.length > 0) {
    const written = await waitedOut(givingUpAt, log, { exchanges: appends.length }, 'assistant threads wait for the database', async () => {
      if (options.replay) appends = await notYetStored(stores.threads, appends);
      await stores.threads.appendAll(appends);
    });
    if (written !== true) log.error({ err: written, exchanges: appends.length, threadIds: appends.map(({ ref }) => ref.threadId) }, 'assistant threads not stored');
  }
  const answers = batch.map((c) => ({ kind: 'answer' as const, record: answerRecordOf(c) }));
  const recorded = await waitedOut(givingUpAt, log, { answers: answers.length }, 'analytics answers wait for the database', () => stores.analytics.write(answers));
  if (recorded !== true) log.error({ err: recorded, answers: answers.length }, 'analytics answers not stored');
}

/** Runs `write` until it succeeds (true), fails for good or the deadline passes (the error's message). */
async function waitedOut(givingUpAt: number, log: WriterLog, fields: Record<string, unknown>, waiting: string, write: () => Promise<void>): Promise<true | string> {
  for (let pause = 100; ; pause = Math.min(pause * 2, 5_000)) {
    try {
      await write();
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!(err instanceof UnavailableError) || Date.now() >= givingUpAt) return message;
      log.warn({ err: message, ...fields }, waiting);
      await sleep(pause);
    }
  }
}

/** The appends whose message is not in its thread yet. */
async function notYetStored(threads: CompletionStores['threads'], appends: ThreadAppend[]): Promise<ThreadAppend[]> {
  const stored = new Set<string>();
  const seen = new Set<string>();
  for (const { ref } of appends) {
    const key = `${ref.orgId}\u0000${ref.threadId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const transcript = await threads.load(ref.orgId, ref.threadId);
    for (const exchange of transcript?.exchanges ?? []) stored.add(`${key}\u0000${exchange.messageId}`);
  }
  return appends.filter(({ ref, exchange }) => !stored.has(`${ref.orgId}\u0000${ref.threadId}\u0000${exchange.messageId}`));
}
