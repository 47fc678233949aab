import { UnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AnalyticsEvent, AnalyticsStore, PageViewInput } from './types.js';
import { VisitorHasher } from './visitor-hash.js';

const DAY_MS = 86_400_000;

export interface RecorderOptions {
  store: AnalyticsStore;
  logger: Logger;
  retentionDays: number;
  /** Events held while the store is slow; beyond this they are dropped and counted. */
  capacity?: number;
  /** Events written per transaction. */
  batchSize?: number;
  flushIntervalMs?: number;
  purgeIntervalMs?: number;
  /** The clock, injectable so retention is tested without waiting. */
  now?: () => number;
}

export interface RecorderStats {
  queued: number;
  /** Events lost: the queue was full, or the store refused their batch. */
  dropped: number;
  written: number;
}

/**
 * Records analytics off the response path: `record` only appends to a bounded
 * queue (never waits, never throws); a timer writes the queue in batches and,
 * once per purge interval, deletes what is older than the retention. A full
 * queue or a failing store costs records, counted in `dropped`, never an answer; a store that is
 * unavailable for now (a database outage) keeps its batch queued for the next round.
 */
export class AnalyticsRecorder {
  private queue: AnalyticsEvent[] = [];
  private dropped = 0;
  private written = 0;
  private lastPurge = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Views whose visitor hash is being made (the day's salt may need a read). */
  private readonly hashing = new Set<Promise<void>>();
  private readonly visitors: VisitorHasher;
  private readonly capacity: number;
  private readonly batchSize: number;
  readonly now: () => number;

  constructor(private readonly options: RecorderOptions) {
    this.capacity = options.capacity ?? 10_000;
    this.batchSize = options.batchSize ?? 500;
    this.now = options.now ?? Date.now;
    this.visitors = new VisitorHasher((day) => options.store.visitorSalt(day));
  }

  get store(): AnalyticsStore {
    return this.options.store;
  }

  get stats(): RecorderStats {
    return { queued: this.queue.length, dropped: this.dropped, written: this.written };
  }

  record(event: AnalyticsEvent): void {
    if (this.queue.length >= this.capacity) {
      this.dropped += 1;
      // One line per thousand lost, so a flood is visible without flooding the log.
      if (this.dropped % 1000 === 1) this.options.logger.warn({ dropped: this.dropped, capacity: this.capacity }, 'analytics queue full; events dropped');
      return;
    }
    this.queue.push(event);
  }

  /**
   * Records a page view like any event (never waits, never throws): the address and user
   * agent only make the visitor hash, then are dropped; only the hash is queued.
   */
  recordView(view: PageViewInput): void {
    const at = this.now();
    const done = this.visitors.hash(view, at).then(
      (visitor) => this.record({ kind: 'view', record: { domainId: view.domainId, at, path: view.path, traffic: view.traffic, visitor } }),
      (err: unknown) => {
        this.dropped += 1;
        this.options.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'page view not recorded: no visitor salt');
      },
    );
    this.hashing.add(done);
    void done.finally(() => this.hashing.delete(done));
  }

  /** Flushes on a timer until `stop`; the timer never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /**
   * Stops the timer and writes what is queued. A round already going (an hourly purge, say) may
   * have begun before the last events came: rounds of its own follow until the queue is empty, or
   * until one writes nothing (the database is down; what is left is logged as lost).
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    while (this.queue.length > 0 || this.hashing.size > 0) {
      const left = this.queue.length;
      await this.tick();
      if (this.queue.length > 0 && this.queue.length >= left) {
        this.options.logger.error({ lost: this.queue.length }, 'analytics events not written before stopping: the database is unavailable');
        return;
      }
    }
  }

  /** One round of the timer: writes the queue, then purges when a purge is due. One round at a time. */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    await Promise.all(this.hashing);
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      try {
        await this.options.store.write(batch);
        this.written += batch.length;
      } catch (err) {
        if (err instanceof UnavailableError) {
          // The database is down or busy: the batch waits at the head of the queue for the next round.
          this.queue.unshift(...batch);
          this.options.logger.warn({ err: err.message, queued: this.queue.length }, 'analytics batch waits for the database');
          return;
        }
        // One event the store refuses must not take the rest of the batch with it: each is written alone.
        const waiting = await this.oneByOne(batch);
        if (waiting.length > 0) {
          this.queue.unshift(...waiting);
          return;
        }
      }
    }
    const now = this.now();
    if (now - this.lastPurge >= (this.options.purgeIntervalMs ?? 3_600_000)) {
      this.lastPurge = now;
      await this.purge().catch((err: unknown) => {
        this.options.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'analytics purge failed');
      });
    }
  }

  /**
   * Writes a batch the store refused one event at a time, dropping (and logging, by kind) only those
   * it refuses again; returns the events left unwritten when the database became unavailable meanwhile.
   */
  private async oneByOne(batch: AnalyticsEvent[]): Promise<AnalyticsEvent[]> {
    for (const [i, event] of batch.entries()) {
      try {
        await this.options.store.write([event]);
        this.written += 1;
      } catch (err) {
        if (err instanceof UnavailableError) {
          this.options.logger.warn({ err: err.message, queued: this.queue.length + batch.length - i }, 'analytics batch waits for the database');
          return batch.slice(i);
        }
        this.dropped += 1;
        this.options.logger.error({ err: err instanceof Error ? err.message : String(err), kind: event.kind, dropped: this.dropped }, 'analytics event not stored');
      }
    }
    return [];
  }

  /** Deletes every record older than the retention, as of the recorder's clock. */
  async purge(): Promise<number> {
    const removed = await this.options.store.purge(this.now() - this.options.retentionDays * DAY_MS);
    if (removed > 0) this.options.logger.info({ removed, retentionDays: this.options.retentionDays }, 'analytics records past retention deleted');
    return removed;
  }
}
