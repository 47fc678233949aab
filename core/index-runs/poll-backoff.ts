/** The longest a poll waits before trying again a head whose index runs keep failing. */
export const MAX_POLL_BACKOFF_MS = 24 * 60 * 60_000;

/**
 * What a poll writes in the memo of the index run it starts: the branch head it saw, and which try
 * of that head in a row the run is (1 for a head never tried, or tried and indexed). A run started
 * otherwise (the API, the push hook) has none.
 */
export interface PolledRunMemo {
  polledHead: string;
  attempt: number;
}

/** A poll's head whose index run failed: how many runs of it failed in a row, and when the poll tries it again. */
export interface PollBackoff {
  head: string;
  failures: number;
  retryAt: Date;
}

/** Reads a run's memo as a poll wrote it; anything else (no memo, another shape) is no poll's. */
export function polledRunMemo(memo: Record<string, unknown> | undefined): PolledRunMemo | undefined {
  const head = memo?.['polledHead'];
  const attempt = memo?.['attempt'];
  if (typeof head !== 'string' || !head) return undefined;
  return { polledHead: head, attempt: typeof attempt === 'number' && Number.isInteger(attempt) && attempt > 0 ? attempt : 1 };
}

/**
 * When a poll tries again the head of a failed run it started: the wait doubles from the interval
 * with each failure in a row (twice the interval after the first, four times after the second, …),
 * at most 24 hours, counted from the failed run's start (the poll that started it).
 */
export function pollBackoff(polled: PolledRunMemo, failedRunStart: Date, pollMinutes: number): PollBackoff {
  const wait = Math.min(pollMinutes * 60_000 * 2 ** Math.min(polled.attempt, 20), MAX_POLL_BACKOFF_MS);
  return { head: polled.polledHead, failures: polled.attempt, retryAt: new Date(failedRunStart.getTime() + wait) };
}

/**
 * Whether the poll running at `now` is the one to try the head again. Polls fire on the interval and
 * the failed run started a moment after its poll, so a poll within half an interval of the time counts:
 * the poll due at about the time tries, not the one after it.
 */
export function pollRetryDue(backoff: PollBackoff, pollMinutes: number, now: Date): boolean {
  return now.getTime() + (pollMinutes * 60_000) / 2 >= backoff.retryAt.getTime();
}
