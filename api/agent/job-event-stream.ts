import { PassThrough, type Writable } from 'node:stream';
import type { Context } from 'koa';
import { TERMINAL_JOB_EVENTS, type JobEvent, type JobEventType, type JobEventLog, type JobStatus } from '../../core/jobs/index.js';
import type { Logger } from '../../core/logger.js';
import { drained } from '../assistant/answer-writer.js';
import { badRequest } from '../http-error.js';

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  // nginx and its kind buffer responses unless told not to; an event feed must arrive as it is written.
  'X-Accel-Buffering': 'no',
};

/** Where a stream reads a job's events and learns whether the job still runs. */
export interface JobEventSource {
  events: JobEventLog;
  /** The job's status now; undefined when the job is gone. Read only while no event is waiting. */
  status(): Promise<JobStatus | undefined>;
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
  /**
   * After the job went idle, how long to wait for its closing event (archive shows before its
   * event is written) before the stream ends anyway.
   */
  settleMs?: number;
  /** Writes an event in another wire format; the default is `id`, `event` and `data` lines. */
  format?: (event: JobEvent) => string;
}

const HEARTBEAT_MS = 15_000;
const SETTLE_MS = 5_000;
/** How often the status is read again while the record lags behind a closing event already sent. */
const RECORD_LAG_POLL_MS = 100;

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
  if (!/^\d{1,15}$/.test(given.trim())) {
    throw badRequest('Last-Event-ID must be the id of an event this stream sent (a whole number)', [
      { path: header !== '' ? 'Last-Event-ID' : 'lastEventId', message: 'must be a whole number' },
    ]);
  }
  return Number(given.trim());
}

/** The event a job logs when it reaches an idle status. */
function closingEvent(status: Exclude<JobStatus, 'active'>): JobEventType {
  return status === 'completed' ? 'job.completed' : status === 'failed' ? 'job.failed' : 'job.archived';
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

/** The stream's loop; false when the client stopped reading and the connection must be cut. */
async function pump(out: Writable, source: JobEventSource, o: JobEventStreamOptions, signal: AbortSignal): Promise<boolean> {
  const format = o.format ?? sseFrame;
  const heartbeatMs = o.heartbeatMs ?? HEARTBEAT_MS;
  let seq = o.lastEventId;
  let idleSince: number | undefined;
  /** When the last event sent closed the job; the workflow records the idle state just after logging it. */
  let closedAt: number | undefined;
  const write = async (text: string) => {
    out.write(text);
    return clientKeepsUp(out, o.stallTimeoutMs);
  };
  while (!signal.aborted) {
    const events = await source.events.after(o.jobId, seq);
    for (const event of events) {
      if (!(await write(format(event)))) return false;
      seq = event.seq;
      closedAt = TERMINAL_JOB_EVENTS.includes(event.type) ? Date.now() : undefined;
    }
    if (events.length > 0) continue;
    const status = await source.status();
    if (status !== 'active') {
      const latest = await source.events.latest(o.jobId);
      // The event that says so is logged (or none ever was): nothing more comes until a new message.
      if (!latest || !status || latest.type === closingEvent(status)) {
        if (latest && latest.seq > seq) continue;
        return true;
      }
      idleSince ??= Date.now();
      if (Date.now() - idleSince >= (o.settleMs ?? SETTLE_MS)) return true;
    } else idleSince = undefined;
    // The closing event is sent but the record still says active: look again soon, not after a heartbeat.
    const lagging = status === 'active' && closedAt !== undefined && Date.now() - closedAt < (o.settleMs ?? SETTLE_MS);
    const wait = lagging ? RECORD_LAG_POLL_MS : idleSince === undefined ? heartbeatMs : Math.min(heartbeatMs, o.settleMs ?? SETTLE_MS);
    if (!(await source.events.waitForEvents(o.jobId, seq, { timeoutMs: wait, signal })) && !signal.aborted && !lagging) {
      if (!(await write(': keep-alive\n\n'))) return false;
    }
  }
  return true;
}
