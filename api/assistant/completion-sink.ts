import { setTimeout as sleep } from 'node:timers/promises';
import type { AnalyticsRecorder } from '../../core/analytics/index.js';
import { UnavailableError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ThreadExchange, ThreadRef, ThreadStore } from '../../core/threads/index.js';
import { recordsOf, type CompletionRecord } from './completion-record.js';

const threadKey = (orgId: string, threadId: string) => `${orgId}\u0000${threadId}`;

/**
 * Where every answer ends: each completion record becomes one analytics
 * answer record and, when it belongs to a thread, one thread exchange. Taking
 * a record never waits and never throws; the records of one turn of the event
 * loop are written together after it (`setImmediate`), off the response path
 * but before the next request is read, so every reader of the thread store (a
 * rating, the admin thread view) finds the exchange once the answer has ended.
 * The answer service's own reader also waits for a write under way (`settled`).
 */
export class CompletionSink {
  private queue: Array<{ ref: ThreadRef; exchange: ThreadExchange }> = [];
  private round: Promise<void> | undefined;
  /** Threads with an exchange queued or being written, and how many. */
  private readonly pending = new Map<string, number>();

  /** How long a batch waits for a database that is unavailable before it is given up (and logged). */
  private readonly retryForMs: number;

  constructor(private readonly deps: { threads: ThreadStore; recorder: AnalyticsRecorder; logger: Logger; retryForMs?: number }) {
    this.retryForMs = deps.retryForMs ?? 10 * 60_000;
  }

  complete(record: CompletionRecord): void {
    const { exchange, answer } = recordsOf(record, this.deps.recorder.now());
    // The recorder keeps its own bounded queue and writes it in batches.
    this.deps.recorder.record({ kind: 'answer', record: answer });
    const { thread } = record;
    if (!thread) return;
    const key = threadKey(thread.orgId, thread.threadId);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.queue.push({ ref: thread, exchange });
    this.round ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.write());
  }

  /** Resolves once the thread's queued exchanges are written (at once when none is). */
  async settled(orgId: string, threadId: string): Promise<void> {
    const key = threadKey(orgId, threadId);
    while (this.pending.has(key) && this.round) await this.round;
  }

  /** Resolves once everything taken so far is written. */
  async flush(): Promise<void> {
    while (this.round) await this.round;
  }

  private async write(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    // One write for the batch, in the order the answers ended. A database that is down or busy is
    // waited out (the answers were sent: their exchanges must not be lost to an outage); what
    // arrives meanwhile queues behind them.
    const givingUpAt = Date.now() + this.retryForMs;
    for (let pause = 100; ; pause = Math.min(pause * 2, 5_000)) {
      try {
        await this.deps.threads.appendAll(batch);
        break;
      } catch (err) {
        if (err instanceof UnavailableError && Date.now() < givingUpAt) {
          this.deps.logger.warn({ err: err.message, exchanges: batch.length }, 'assistant threads wait for the database');
          await sleep(pause);
          continue;
        }
        this.deps.logger.error({ err, exchanges: batch.length, threadIds: batch.map(({ ref }) => ref.threadId) }, 'assistant threads not stored');
        break;
      }
    }
    for (const { ref } of batch) {
      const key = threadKey(ref.orgId, ref.threadId);
      const left = (this.pending.get(key) ?? 1) - 1;
      if (left > 0) this.pending.set(key, left);
      else this.pending.delete(key);
    }
    this.round = this.queue.length > 0 ? this.write() : undefined;
  }
}
