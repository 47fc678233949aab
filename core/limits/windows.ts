/** A window of a limit; `month` means the calendar month in UTC. */
export type Window = 'hour' | 'day' | 'month';

/** Where `now` falls in a window, and how long each store keeps its count. */
export interface WindowSpan {
  /** Names the window in the store key (its start), so a new window is a new count. */
  suffix: string;
  /** Redis expiry of the count: the window's length. */
  storeSeconds: number;
  /**
   * In-memory expiry of the count; 0 means none. Node timers hold at most
   * 2^31-1 ms (about 24.8 days): a month's length would overflow and expire
   * the count at once, so month counts never expire and are swept instead.
   */
  memorySeconds: number;
  /** The calendar month of a month window, for sweeping past months out of memory. */
  month?: string;
  /** Seconds until the window resets. */
  reset: number;
}

const WINDOW_SECONDS: Record<Exclude<Window, 'month'>, number> = { hour: 3600, day: 86_400 };

export function windowOf(window: Window, now: Date): WindowSpan {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (window !== 'month') {
    const duration = WINDOW_SECONDS[window];
    const start = Math.floor(nowSeconds / duration) * duration;
    return { suffix: String(start), storeSeconds: duration, memorySeconds: duration, reset: start + duration - nowSeconds };
  }
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const month = new Date(start).toISOString().slice(0, 7);
  return {
    suffix: month,
    storeSeconds: Math.ceil((end - start) / 1000),
    memorySeconds: 0,
    month,
    reset: Math.ceil((end - now.getTime()) / 1000),
  };
}

/**
 * `windowOf`, remembered for the current second: a window's span depends only on the whole
 * second (the month's reset too, as months end on a whole second), and every request asks for
 * the same few windows.
 */
export class WindowClock {
  private readonly recent = new Map<Window, { second: number; span: WindowSpan }>();

  spanOf(window: Window, now: Date): WindowSpan {
    const second = Math.floor(now.getTime() / 1000);
    const kept = this.recent.get(window);
    if (kept && kept.second === second) return kept.span;
    const span = windowOf(window, now);
    this.recent.set(window, { second, span });
    return span;
  }
}
