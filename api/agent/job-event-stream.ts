import { PassThrough, type Writable } from 'node:stream';
import type { Context } from 'koa';
import type { JobEvent, JobEventLog, JobStatus } from '../../core/jobs/index.js';
import type { Logger } from '../../core/logger.js';
import { drained } from '../assistant/answer-writer.js';
import { badRequest } from '../http-error.js';

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  // nginx and its kind buffer responses unless told not to; an event feed must arrive as it is written.
  'X-Accel-Buffering': 'no',
};

/**
 * Where a stream reads a job's events and learns whether the job still runs. The workflow writes
 * a state and the events that lead to it in one transaction: once the status is no longer
 * `active`, the log already holds the closing event.
 */
export interface JobEventSource {
  events: JobEventLog;
  /** The job's status now; undefined when the job is gone. Read only while no event is waiting. */
  status(): Promise<JobStatus | undefined>;
  /** Whether the caller's credential still holds (AuthState.inForce); asked before each wait's events go out. */
  inForce(): Promise<boolean>;
}

export interface JobEventStreamOptions {
  jobId: string;
  /** Events up to and including this sequence number are not sent again (0: from the start). */
  lastEventId: number;
  /** The client read nothing this long while the stream was full: cut it (config.http.streamStallTimeoutMs). */
  stallTimeoutMs: number;
  logger: Logger;
  /** A comment line this often while nothing happens, so proxies keep the connection. */
  heartbeatMs?: number;
  /** Writes an event in another wire format; the default is `id`, `event` and `data` lines. */
  format?: (event: JobEvent) => string;
}

const HEARTBEAT_MS = 15_000;

/** An SSE frame: `id` is the sequence number, `event` the type, `data` the event as JSON. */
export function sseFrame(event: JobEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** `Last-Event-ID` (the header browsers send on reconnect) or `?lastEventId=` for clients that cannot set headers. */
export function lastEventIdOf(ctx: Context): number {
  const header = ctx.get('Last-Event-ID');
  const query = ctx.query.lastEventId;
  const given = header !== '' ? header : typeof query === 'string' ? query : undefined;
  if (Array.isArray(query)) throw badRequest('send lastEventId once', [{ path: 'lastEventId', message: 'must appear once' }]);
  if (given === undefined) return 0;
  // Sequence numbers are 32-bit in the database: a larger id is none this stream sent.
  if (!/^\d{1,10}$/.test(given.trim()) || Number(given.trim()) > 2_147_483_647) {
    throw badRequest('Last-Event-ID must be the id of an event this stream sent (a whole number)', [
      { path: header !== '' ? 'Last-Event-ID' : 'lastEventId', message: 'must be a whole number' },
    ]);
  }
  return Number(given.trim());
}

/**
 * Answers the request with the job's events as server-sent events: those after `lastEventId`
 * first, then each new one as it is logged, until the job is idle and its closing event is sent.
 * Returns at once; the stream runs on its own and ends when the client leaves or stops reading.
 */
export function streamJobEvents(ctx: Context, source: JobEventSource, options: JobEventStreamOptions): void {
  const out = new PassThrough();
  const controller = new AbortController();
  ctx.res.once('close', () => controller.abort());
  ctx.status = 200;
  ctx.set(EVENT_STREAM_HEADERS);
  ctx.body = out;
  const end = () => {
    out.end();
    if (ctx.res.closed) return;
    // The last bytes too must be read in bounded time, or the connection would stay open for ever.
    const stalled = setTimeout(() => ctx.res.destroy(), options.stallTimeoutMs);
    ctx.res.once('close', () => clearTimeout(stalled));
  };
  pump(out, source, options, controller.signal).then(
    (kept) => (kept ? end() : ctx.res.destroy()),
    (err: unknown) => {
      options.logger.error({ err, jobId: options.jobId }, 'job event stream failed');
      end();
    },
  );
}

/** Waits until `out` has room again; false when the client read nothing for `stallTimeoutMs`. */
async function clientKeepsUp(out: Writable, stallTimeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([drained(out).then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), stallTimeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The stream's loop: follows the log until the job is idle and its closing event is sent; false when the client stopped reading. */
async function pump(out: Writable, source: JobEventSource, o: JobEventStreamOptions, signal: AbortSignal): Promise<boolean> {
  const format = o.format ?? sseFrame;
  let seq = o.lastEventId;
  const write = async (text: string) => {
    out.write(text);
    return clientKeepsUp(out, o.stallTimeoutMs);
  };
  while (!signal.aborted) {
    // A key revoked or a session signed out while the stream was open ends it before anything more is sent.
    if (!(await source.inForce())) return true;
    const events = await source.events.after(o.jobId, seq);
    for (const event of events) {
      if (!(await write(format(event)))) return false;
      seq = event.seq;
    }
    if (events.length > 0) continue;
    if ((await source.status()) !== 'active') {
      // Committed with the idle state: its closing event, unless it came after the read above.
      const latest = await source.events.latest(o.jobId);
      if (latest && latest.seq > seq) continue;
      return true;
    }
    if (!(await source.events.waitForEvents(o.jobId, seq, { timeoutMs: o.heartbeatMs ?? HEARTBEAT_MS, signal })) && !signal.aborted) {
      if (!(await write(': keep-alive\n\n'))) return false;
    }
  }
  return true;
}
