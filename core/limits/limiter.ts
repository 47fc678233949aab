import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** A window of a limit; `month` means the calendar month in UTC. */
export type Window = 'hour' | 'day' | 'month';

export interface LimitCheck {
  /** Stable name of the limit, part of the store key (`assistant-key`, `agent-create`, …). */
  name: string;
  /** Who is counted: a key id, an organisation, a project, an IP. */
  subject: string;
  points: number;
  window: Window;
}

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(readonly check: LimitCheck, readonly state: LimitState) {
    super(`rate limit '${check.name}' reached: ${check.points} per ${check.window}`);
  }
}

/** The limit store (Redis) failed and the operator chose fail-closed. */
export class LimitStoreUnavailableError extends Error {
  override name = 'LimitStoreUnavailableError';
}

const WINDOW_SECONDS: Record<Exclude<Window, 'month'>, number> = { hour: 3600, day: 86_400 };

function windowOf(window: Window, now: Date): { suffix: string; duration: number; reset: number } {
  if (window !== 'month') {
    const duration = WINDOW_SECONDS[window];
    const start = Math.floor(now.getTime() / 1000 / duration) * duration;
    return { suffix: String(start), duration, reset: start + duration - Math.floor(now.getTime() / 1000) };
  }
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return {
    suffix: new Date(start).toISOString().slice(0, 7),
    duration: Math.ceil((end - start) / 1000),
    reset: Math.ceil((end - now.getTime()) / 1000),
  };
}

export interface LimiterOptions {
  redis?: Redis;
  /** With Redis: on a store error, keep serving from memory ('open') or refuse ('closed'). */
  onStoreError: 'open' | 'closed';
  onStoreFailure?: (err: unknown) => void;
}

/**
 * Fixed windows aligned to the clock (the hour, the UTC day, the UTC calendar
 * month), counted by rate-limiter-flexible in Redis or in memory. Checks are
 * taken in order; when one refuses, the points already taken are given back,
 * so a refused request spends nothing.
 */
export class Limiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly options: LimiterOptions) {}

  private limiterFor(check: LimitCheck, duration: number): RateLimiterAbstract {
    const id = `${check.name}:${check.points}:${duration}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const base = { keyPrefix: `quire:rl:${check.name}`, points: check.points, duration };
      const memory = new RateLimiterMemory(base);
      if (this.options.redis) {
        limiter = new RateLimiterRedis({
          ...base,
          storeClient: this.options.redis,
          useRedisPackage: false,
          rejectIfRedisNotReady: true,
          ...(this.options.onStoreError === 'open' ? { insuranceLimiter: memory } : {}),
        });
      } else {
        limiter = memory;
      }
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Consumes one point of every check, or none; returns the tightest state. */
  async consume(checks: LimitCheck[], now = new Date()): Promise<LimitState> {
    const taken: Array<{ limiter: RateLimiterAbstract; key: string }> = [];
    let tightest: LimitState | undefined;
    for (const check of checks) {
      const w = windowOf(check.window, now);
      const limiter = this.limiterFor(check, w.duration);
      const key = `${check.subject}:${w.suffix}`;
      try {
        const res = await limiter.consume(key, 1);
        taken.push({ limiter, key });
        const state = { limit: check.points, remaining: res.remainingPoints, resetSeconds: w.reset };
        if (!tightest || state.remaining < tightest.remaining) tightest = state;
      } catch (err) {
        await Promise.allSettled(taken.map((t) => t.limiter.reward(t.key, 1)));
        if (err instanceof RateLimiterRes) {
          // The refused point was counted too; give it back so retries do not extend the block.
          await limiter.reward(key, 1).catch(() => undefined);
          throw new RateLimitedError(check, { limit: check.points, remaining: 0, resetSeconds: w.reset });
        }
        this.options.onStoreFailure?.(err);
        throw new LimitStoreUnavailableError('the rate-limit store is unavailable', { cause: err });
      }
    }
    return tightest ?? { limit: 0, remaining: 0, resetSeconds: 0 };
  }
}
