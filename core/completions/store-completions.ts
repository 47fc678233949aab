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
 * A batch refused for another reason is written again one exchange at a time, so an exchange the
 * database refuses (a value PostgreSQL cannot store, say) costs only itself (logged).
 */
export async function storeExchanges(threads: CompletionStores['threads'], batch: readonly StoredCompletion[], options: StoreOptions): Promise<void> {
  const appends: ThreadAppend[] = [];
  for (const c of batch) if (c.thread) appends.push(threadAppendOf({ ...c, thread: c.thread }));
  const lost = await storeBatch(appends, options, 'assistant threads wait for the database', async (some) => {
    await threads.appendAll(options.replay ? await notYetStored(threads, some) : some);
  });
  for (const { items, err } of lost) options.log.error({ err, exchanges: items.length, threadIds: items.map(({ ref }) => ref.threadId) }, 'assistant threads not stored');
}

/** Writes the analytics answer records of completions (with their daily counts) in one transaction, waiting out an outage and refusals as `storeExchanges` does. */
export async function storeAnswers(analytics: CompletionStores['analytics'], batch: readonly StoredCompletion[], options: Omit<StoreOptions, 'replay'>): Promise<void> {
  const answers = batch.map((c) => ({ kind: 'answer' as const, record: answerRecordOf(c) }));
  const lost = await storeBatch(answers, options, 'analytics answers wait for the database', (some) => analytics.write(some));
  for (const { items, err } of lost) options.log.error({ err, answers: items.length }, 'analytics answers not stored');
}

/**
 * Writes `items` together, waiting out an outage; when the store refuses them for another reason
 * and there is more than one, each alone. Returns what was given up, with why.
 */
async function storeBatch<T>(items: T[], options: Omit<StoreOptions, 'replay'>, waiting: string, write: (items: T[]) => Promise<void>): Promise<Array<{ items: T[]; err: string }>> {
  if (items.length === 0) return [];
  const givingUpAt = Date.now() + options.retryForMs;
  const together = await waitedOut(givingUpAt, options.log, { items: items.length }, waiting, () => write(items));
  if (together === true) return [];
  if (items.length === 1 || together.unavailable) return [{ items, err: together.message }];
  const lost: Array<{ items: T[]; err: string }> = [];
  for (const item of items) {
    const alone = await waitedOut(givingUpAt, options.log, { items: 1 }, waiting, () => write([item]));
    if (alone !== true) lost.push({ items: [item], err: alone.message });
  }
  return lost;
}

/** Runs `write` until it succeeds (true), fails for good or the deadline passes (why, and whether the database was unavailable). */
async function waitedOut(
  givingUpAt: number,
  log: WriterLog,
  fields: Record<string, unknown>,
  waiting: string,
  write: () => Promise<void>,
): Promise<true | { message: string; unavailable: boolean }> {
  for (let pause = 100; ; pause = Math.min(pause * 2, 5_000)) {
    try {
      await write();
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const unavailable = err instanceof UnavailableError;
      if (!unavailable || Date.now() >= givingUpAt) return { message, unavailable };
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
