import { setTimeout as sleep } from 'node:timers/promises';
import type { JobEventLog, WaitOptions } from './job-events.js';

/** How often a waiting reader looks again: the worker writes from another process, so there is nothing to subscribe to. */
export const EVENT_POLL_MS = 200;

/** Polls the log until an event above `afterSeq` exists; false on timeout or abort. */
export async function pollForEvents(log: Pick<JobEventLog, 'after'>, jobId: string, afterSeq: number, options: WaitOptions): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if ((await log.after(jobId, afterSeq, 1)).length > 0) return true;
    const left = deadline - Date.now();
    if (left <= 0 || options.signal?.aborted) return false;
    try {
      await sleep(Math.min(EVENT_POLL_MS, left), undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      return false;
    }
  }
}
