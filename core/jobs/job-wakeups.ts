import type { Redis } from 'ioredis';
import type { Database } from '../db/index.js';
import type { JobEventLog, WaitOptions } from './job-events.js';

/**
 * Wakes the readers of a job's event log (the event streams) when a writer has committed new
 * events, so a stream never polls the log on its own. Best effort: a reader always reads the log
 * again after a wake-up or its timeout, so a lost wake-up costs latency, never an event.
 */
export interface JobWakeups {
  /** Called by a writer after its commit. */
  notify(jobId: string): Promise<void>;
  /** Resolves on a wake-up for the job (or, polling, once its log holds an event above `afterSeq`), on timeout or on abort. */
  wait(jobId: string, afterSeq: number, options: WaitOptions): Promise<void>;
  close(): Promise<void>;
}

/** How often the polling adapter looks at the log while any stream waits. */
export const WAKEUP_POLL_MS = 200;

interface Waiter {
  jobId: string;
  afterSeq: number;
  wake: () => void;
}

/** Registers a waiter until it is woken, times out or is aborted; `onChange` sees the set change. */
function waitIn(waiters: Set<Waiter>, jobId: string, afterSeq: number, options: WaitOptions, onChange: (jobId: string) => void): Promise<void> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', done);
      waiters.delete(waiter);
      onChange(jobId);
      resolve();
    };
    const waiter: Waiter = { jobId, afterSeq, wake: done };
    const timer = setTimeout(done, options.timeoutMs);
    options.signal?.addEventListener('abort', done, { once: true });
    waiters.add(waiter);
    onChange(jobId);
  });
}

/**
 * With Redis: a writer publishes on the job's channel after commit; each process holds one
 * subscriber connection, subscribed to the channels of the jobs its streams wait on. Channels are
 * subscribed only on a ready connection, all of them again on each `ready` (a subscription sent
 * while connecting was refused, or lost with its connection, and nothing said so), and every waiter
 * is woken then to read the log for what it missed. While the connection is not ready, waiters
 * look at the log every `WAKEUP_POLL_MS`, as the poller does.
 */
export function redisJobWakeups(redis: Redis): JobWakeups {
  const waiters = new Set<Waiter>();
  const subscribed = new Set<string>();
  const channel = (jobId: string) => `quire:job-events:${jobId}`;
  const jobOf = (name: string) => name.slice('quire:job-events:'.length);
  // Its own connection: a subscribed connection runs no other command.
  const subscriber = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, autoResubscribe: false });
  const ready = () => subscriber.status === 'ready';

  const subscribe = (jobId: string) => {
    subscribed.add(jobId);
    subscriber.subscribe(channel(jobId)).catch(() => subscribed.delete(jobId));
  };
  const sync = (jobId: string) => {
    const wanted = [...waiters].some((w) => w.jobId === jobId);
    if (wanted && !subscribed.has(jobId)) {
      if (ready()) subscribe(jobId);
    } else if (!wanted && subscribed.has(jobId)) {
      subscribed.delete(jobId);
      if (ready()) void subscriber.unsubscribe(channel(jobId)).catch(() => undefined);
    }
  };

  subscriber.on('error', () => undefined);
  subscriber.on('message', (name: string) => {
    const jobId = jobOf(name);
    for (const w of waiters) if (w.jobId === jobId) w.wake();
  });
  subscriber.on('close', () => subscribed.clear());
  subscriber.on('ready', () => {
    for (const jobId of new Set([...waiters].map((w) => w.jobId))) subscribe(jobId);
    for (const w of [...waiters]) w.wake();
  });
  subscriber.connect().catch(() => undefined);

  return {
    async notify(jobId) {
      // A wake-up that cannot be sent is only latency: readers look again after their timeout.
      await redis.publish(channel(jobId), '').catch(() => undefined);
    },
    wait: (jobId, afterSeq, options) => waitIn(waiters, jobId, afterSeq, ready() ? options : { ...options, timeoutMs: Math.min(options.timeoutMs, WAKEUP_POLL_MS) }, sync),
    async close() {
      for (const w of [...waiters]) w.wake();
      subscriber.disconnect();
    },
  };
}

/**
 * Without Redis (the embedded mode: the API and the worker are separate processes on one SQLite
 * file): one poller per process reads the newest sequence number of every job a stream waits on,
 * in one query every `WAKEUP_POLL_MS`, only while any stream waits. Writes of this process wake at once.
 */
export function pollingJobWakeups(database: Database, pollMs = WAKEUP_POLL_MS): JobWakeups {
  const waiters = new Set<Waiter>();
  let timer: NodeJS.Timeout | undefined;

  const poll = async () => {
    const jobIds = [...new Set([...waiters].map((w) => w.jobId))];
    if (jobIds.length > 0) {
      const rows = await database.queries
        .selectFrom('job_events')
        .select((eb) => ['job_id', eb.fn.max('seq').as('seq')])
        .where('job_id', 'in', jobIds)
        .groupBy('job_id')
        .execute()
        .catch(() => []);
      const newest = new Map(rows.map((r) => [r.job_id, Number(r.seq)]));
      for (const w of [...waiters]) if ((newest.get(w.jobId) ?? 0) > w.afterSeq) w.wake();
    }
    timer = waiters.size > 0 ? setTimeout(() => void poll(), pollMs) : undefined;
  };
  const sync = () => {
    if (waiters.size > 0 && !timer) timer = setTimeout(() => void poll(), pollMs);
  };

  return {
    async notify(jobId) {
      for (const w of [...waiters]) if (w.jobId === jobId) w.wake();
    },
    wait: (jobId, afterSeq, options) => waitIn(waiters, jobId, afterSeq, options, sync),
    async close() {
      clearTimeout(timer);
      timer = undefined;
      for (const w of [...waiters]) w.wake();
    },
  };
}

/** The wake-ups a process uses: Redis pub/sub when the deployment has Redis, else the poller. */
export function openJobWakeups(database: Database, redis: Redis | undefined): JobWakeups {
  return redis ? redisJobWakeups(redis) : pollingJobWakeups(database);
}

/** Resolves true once the log holds an event above `afterSeq`; false on timeout or abort. */
export async function waitForEvents(log: Pick<JobEventLog, 'after'>, wakeups: JobWakeups, jobId: string, afterSeq: number, options: WaitOptions): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    // The caller's signal stops this round's wait through a listener removed when the round ends:
    // `AbortSignal.any` would leave an entry on the caller's signal per round (about 100 bytes), and
    // an event stream's signal lives for the whole stream.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) stop.abort();
    const { signal } = stop;
    // Waiting starts before the read, so a write between the two still wakes this reader.
    const woken = left > 0 && !signal.aborted ? wakeups.wait(jobId, afterSeq, { timeoutMs: left, signal }) : undefined;
    try {
      if ((await log.after(jobId, afterSeq, 1)).length > 0) return true;
      if (!woken) return false;
      await woken;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      stop.abort();
    }
  }
}
