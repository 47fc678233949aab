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
 * Appends the thread exchanges of a batch of completions in one transaction, in the order the
 * answers ended. A database that is down or busy is waited out, a pause that doubles up to 5 s, for
 * `retryForMs` at most: the answers were sent, their exchanges must not be lost to an outage.
 * Another error gives the write up (logged).
 */
export async function storeExchanges(threads: CompletionStores['threads'], batch: readonly StoredCompletion[], options: StoreOptions): Promise<void> {
  let appends: ThreadAppend[] = [];
  for (const c of batch) if (c.thread) appends.push(threadAppendOf({ ...c, thread: c.thread }));
  if (appends.length === 0) return;
  const written = await waitedOut(Date.now() + options.retryForMs, options.log, { exchanges: appends.length }, 'assistant threads wait for the database', async () => {
    if (options.replay) appends = await notYetStored(threads, appends);
    await threads.appendAll(appends);
  });
  if (written !== true) options.log.error({ err: written, exchanges: appends.length, threadIds: appends.map(({ ref }) => ref.threadId) }, 'assistant threads not stored');
}

/** Writes the analytics answer records of completions (with their daily counts) in one transaction, waiting out an outage as `storeExchanges` does. */
export async function storeAnswers(analytics: CompletionStores['analytics'], batch: readonly StoredCompletion[], options: Omit<StoreOptions, 'replay'>): Promise<void> {
  if (batch.length === 0) return;
  const answers = batch.map((c) => ({ kind: 'answer' as const, record: answerRecordOf(c) }));
  const recorded = await waitedOut(Date.now() + options.retryForMs, options.log, { answers: answers.length }, 'analytics answers wait for the database', () => analytics.write(answers));
  if (recorded !== true) options.log.error({ err: recorded, answers: answers.length }, 'analytics answers not stored');
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
