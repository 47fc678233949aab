import { Worker } from 'node:worker_threads';
import type { QueryObserver } from '../db/index.js';
import type { Logger } from '../logger.js';
import type { StoredCompletion } from './completion.js';
import type { FromWriter, ToWriter, WriterSettings } from './writer-protocol.js';
import { writerEntry } from './writer-thread.js';

const threadKey = (orgId: string, threadId: string) => `${orgId}\u0000${threadId}`;

/** How long closing waits for the database to take what is left (it takes it in milliseconds when up). */
const CLOSE_DRAIN_MS = 10_000;

export interface CompletionWriterOptions extends Omit<WriterSettings, 'retryForMs'> {
  /** How long a write waits for a database that is unavailable (and a writer thread that keeps failing). */
  retryForMs?: number;
  logger: Logger;
  /** Told each statement the writer thread ran, as its acknowledgements report them (the database metric). */
  observe: QueryObserver;
}

/** A batch handed to the writer thread and not yet acknowledged: sent again if the thread stops. */
interface SentBatch {
  seq: number;
  completions: StoredCompletion[];
  /** Handed to a writer thread that stopped before acknowledging it: it may be stored already. */
  replay: boolean;
}

/**
 * The main thread's side of the completion writer: every answer's completion is taken here (never
 * waits, never throws), the completions of one turn of the event loop are handed to the writer
 * thread as one message after it (`setImmediate`), and the thread acknowledges each batch twice:
 * once its thread exchanges are committed (`settled`), once its answer records are too (`flush`).
 * The thread is started on the first batch. If it stops unasked (a crash), the batches whose
 * records it had not all acknowledged are handed to a new one, which skips the exchanges already
 * stored (answer records are stored once by their id): nothing taken is lost or stored twice.
 */
export class CompletionWriter {
  private taken: StoredCompletion[] = [];
  private scheduled = false;
  /** The number of the last batch handed over, of the last one settled, and of the last one stored. */
  private sent = 0;
  private settledUpTo = 0;
  private storedUpTo = 0;
  /** A flush asked for while completions of this turn wait to be handed over: sent after them. */
  private flushAsked = false;
  private readonly unacked: SentBatch[] = [];
  /** Per thread with an exchange not yet acknowledged: the batch that carries its last one. */
  private readonly lastBatchOf = new Map<string, number>();
  /** Waiters for a batch to be settled, or stored, by its number. */
  private readonly settledWaiters = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  private readonly storedWaiters = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  private worker: Worker | undefined;
  /** A new writer thread is due after a pause (the last one stopped unasked). */
  private restarting = false;
  private closing = false;
  /** Closing gave up on the database: the thread was stopped, and no other takes its batches. */
  private abandoned = false;
  /** When the writer thread started failing without acknowledging anything since. */
  private failingSince: number | undefined;
  private restartPause = 100;
  private readonly retryForMs: number;

  constructor(private readonly options: CompletionWriterOptions) {
    this.retryForMs = options.retryForMs ?? 10 * 60_000;
  }

  /** The writer thread while one runs (a test stops it to play a crash). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  take(completion: StoredCompletion): void {
    this.taken.push(completion);
    if (completion.thread) this.lastBatchOf.set(threadKey(completion.thread.orgId, completion.thread.threadId), this.sent + 1);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.handOver());
  }

  /** Resolves once the thread's exchanges taken so far are committed (at once when none is pending). */
  settled(orgId: string, threadId: string): Promise<void> {
    const seq = this.lastBatchOf.get(threadKey(orgId, threadId));
    return seq === undefined || seq <= this.settledUpTo ? Promise.resolve() : waiterOf(this.settledWaiters, seq);
  }

  /** Resolves once everything taken so far is written (or given up and logged). */
  flush(): Promise<void> {
    const seq = this.taken.length > 0 ? this.sent + 1 : this.sent;
    if (seq <= this.storedUpTo) return Promise.resolve();
    // The thread holds answer records back for a while: asked to write them now.
    if (this.taken.length > 0) this.flushAsked = true;
    else this.worker?.postMessage({ kind: 'flush' } satisfies ToWriter);
    return waiterOf(this.storedWaiters, seq);
  }

  /**
   * Drains: what is taken is written, then the writer thread closes its database and ends. A
   * database that does not take it within `drainMs` (down at shutdown) is not waited out for the
   * writer's ten minutes: what is left is logged as lost and the thread stopped, so the process
   * exits before its supervisor kills it anyway.
   */
  async close(drainMs = CLOSE_DRAIN_MS): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), drainMs)));
    const drained = await Promise.race([this.flush().then(() => true), late]);
    clearTimeout(timer);
    if (!drained) {
      const lost = this.taken.length + this.unacked.reduce((n, b) => n + b.completions.length, 0);
      this.options.logger.error({ completions: lost }, 'answers not stored: the database did not take them before shutdown');
      this.abandoned = true;
      await this.worker?.terminate();
      return;
    }
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // An idle thread is unreferenced: held now, so a process with nothing else to do (a CLI, a script) waits for it to end.
    worker.ref();
    worker.postMessage({ kind: 'close' } satisfies ToWriter);
    await exited;
  }

  private handOver(): void {
    this.scheduled = false;
    const batch: SentBatch = { seq: ++this.sent, completions: this.taken, replay: false };
    this.taken = [];
    this.unacked.push(batch);
    if (this.worker) this.post(this.worker, batch);
    else if (!this.restarting) this.start();
    if (this.flushAsked && this.worker) this.worker.postMessage({ kind: 'flush' } satisfies ToWriter);
    this.flushAsked = false;
  }

  private post(worker: Worker, { seq, completions, replay }: SentBatch): void {
    // Held open while a batch is outstanding, so a process that is shutting down drains it first.
    worker.ref();
    worker.postMessage({ kind: 'batch', seq, completions, replay } satisfies ToWriter);
  }

  /** A writer thread, handed every batch not yet acknowledged. */
  private start(): void {
    const { logger, database, poolSize, threadRetentionDays } = this.options;
    const settings: WriterSettings = { database, poolSize, threadRetentionDays, retryForMs: this.retryForMs };
    const worker = writerThread(settings);
    worker.on('message', (message: FromWriter) => {
      if (message.kind === 'log') {
        logger[message.level](message.fields, message.message);
        return;
      }
      this.observe(message.queries);
      if (message.kind === 'settled') this.committed(message.seq);
      else this.stored(message.seq);
    });
    worker.on('error', (err) => logger.error({ err }, 'the completion writer thread failed'));
    worker.on('exit', () => this.exited(worker));
    this.worker = worker;
    for (const batch of this.unacked) this.post(worker, batch);
  }

  private observe(queries: Array<string | number>): void {
    for (let i = 0; i + 1 < queries.length; i += 2) this.options.observe(queries[i] as Parameters<QueryObserver>[0], queries[i + 1] as number, false);
  }

  /** The thread exchanges of every batch up to `seq` are committed. */
  private committed(seq: number): void {
    for (const { seq: s, completions } of this.unacked) {
      if (s > seq) break;
      if (s <= this.settledUpTo) continue;
      for (const { thread } of completions) {
        if (!thread) continue;
        const key = threadKey(thread.orgId, thread.threadId);
        if ((this.lastBatchOf.get(key) ?? Infinity) <= seq) this.lastBatchOf.delete(key);
      }
    }
    if (seq <= this.settledUpTo) return;
    const from = this.settledUpTo;
    this.settledUpTo = seq;
    resolveUpTo(this.settledWaiters, from, seq);
  }

  /** Every batch up to `seq` is written: it is no longer kept to hand to a new thread. */
  private stored(seq: number): void {
    this.committed(seq);
    this.failingSince = undefined;
    this.restartPause = 100;
    while (this.unacked.length > 0 && this.unacked[0]!.seq <= seq) this.unacked.shift();
    if (this.unacked.length === 0) this.worker?.unref();
    if (seq <= this.storedUpTo) return;
    const from = this.storedUpTo;
    this.storedUpTo = seq;
    resolveUpTo(this.storedWaiters, from, seq);
  }

  /** The writer thread ended: asked to (closing, nothing outstanding), or not: then a new one takes over what it left. */
  private exited(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.unacked.length === 0 || this.abandoned) return;
    for (const batch of this.unacked) batch.replay = true;
    const now = Date.now();
    this.failingSince ??= now;
    if (now - this.failingSince >= this.retryForMs) {
      const lost = this.unacked.reduce((n, b) => n + b.completions.length, 0);
      this.options.logger.error({ completions: lost }, 'answers not stored: the completion writer thread keeps failing');
      // Given up like a write that is not an outage: the waiters go on, the next answers get a new thread.
      this.stored(this.unacked.at(-1)!.seq);
      return;
    }
    this.options.logger.warn({ batches: this.unacked.length }, 'the completion writer thread stopped; a new one takes over its batches');
    const pause = this.restartPause;
    this.restartPause = Math.min(pause * 2, 5_000);
    this.restarting = true;
    setTimeout(() => {
      this.restarting = false;
      if (!this.worker && this.unacked.length > 0) this.start();
    }, pause);
  }
}

/** The promise of a batch's acknowledgement, made on first ask. */
function waiterOf(waiters: Map<number, { promise: Promise<void>; resolve: () => void }>, seq: number): Promise<void> {
  let waiter = waiters.get(seq);
  if (!waiter) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    waiter = { promise, resolve };
    waiters.set(seq, waiter);
  }
  return waiter.promise;
}

/** Resolves the waiters of batches `from + 1` to `to`. */
function resolveUpTo(waiters: Map<number, { resolve: () => void }>, from: number, to: number): void {
  for (let s = from + 1; s <= to; s++) {
    waiters.get(s)?.resolve();
    waiters.delete(s);
  }
}

/**
 * Starts the writer thread's entry as this module runs: compiled, or from TypeScript source (the
 * tests), where the thread loads tsx's require hook before the entry, as mocha's own process does.
 */
function writerThread(settings: WriterSettings): Worker {
  if (writerEntry.endsWith('.js')) return new Worker(writerEntry, { workerData: settings });
  const source = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(writerEntry)});`;
  return new Worker(source, { eval: true, workerData: settings });
}
