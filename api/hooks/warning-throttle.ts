/** How long the push hook stays quiet about a domain once it has warned of it. */
export const PUSH_WARNING_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Lets a warning about one key (a domain) through at most once per interval: a forge that retries
 * its deliveries, or someone probing the hook, must not write a line per request. Each process
 * keeps its own, so every API process still warns once.
 */
export class WarningThrottle {
  private readonly warnedAt = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(opts: { intervalMs: number; now?: () => number }) {
    this.intervalMs = opts.intervalMs;
    this.now = opts.now ?? Date.now;
  }

  /** True when the warning about `key` may be logged now, which counts as logging it. */
  allow(key: string): boolean {
    const now = this.now();
    const last = this.warnedAt.get(key);
    if (last !== undefined && now - last < this.intervalMs) return false;
    // Keys past their interval are forgotten, so the map holds only the last interval's keys.
    for (const [k, at] of this.warnedAt) if (now - at >= this.intervalMs) this.warnedAt.delete(k);
    this.warnedAt.set(key, now);
    return true;
  }

  /** How many keys it remembers: those let through within the last interval. */
  get size(): number {
    return this.warnedAt.size;
  }
}
