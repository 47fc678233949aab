import type { JobEvent } from '../../../core/jobs/index.js';

/**
 * One event of the v1 run stream: a `data` line of JSON (`type`, `sessionId`, `time`, `data`, the
 * event's own payload) with the sequence number as its `id`. No `event:` line, so a client that
 * reads only `data` lines, or an EventSource's `onmessage`, sees every event.
 */
export function runFrame(event: JobEvent): string {
  const body = { type: event.type, sessionId: event.jobId, time: event.time, data: event.data };
  return `id: ${event.seq}\ndata: ${JSON.stringify(body)}\n\n`;
}
