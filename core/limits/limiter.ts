import { AsyncResource } from 'node:async_hooks';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';
import { QuireError, UnavailableError } from '../errors.js';
import type { LimitMetrics, LimitSubject } from '../telemetry/index.js';
import { WindowClock, type Window, type WindowSpan } from './windows.js';

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

/**
 * What one `consume` took: the tightest state (for the `RateLimit-*` headers) and the points it
 * took, each from the store and the window it was counted in, which `giveBack` returns when the
 * request is refused after all. The points are the limiter's own; nothing else reads them.
 */
export interface Spent extends LimitState {
  readonly taken: readonly Taken[];
}

/** 429 `rate_limited`: a limit is spent; `Retry-After` and the `RateLimit-*` headers say until when. */
export class RateLimitedError extends QuireError {
  override name = 'RateLimitedError';
  constructor(readonly check: LimitCheck, readonly state: LimitState) {
    const reset = Math.max(1, state.resetSeconds);
    super(429, 'rate_limited', `rate limit '${check.name}' reached: ${check.points} per ${check.window}`, {
      retryAfterSeconds: reset,
      headers: { 'RateLimit-Limit': String(state.limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(state.resetSeconds) },
    });
  }
}

/** The limit store (Redis) failed and the operator chose fail-closed. */
export class LimitStoreUnavailableError extends UnavailableError {
  override name = 'LimitStoreUnavailableError';
  constructor(options: { cause?: unknown } = {}) {
    super('redis', 'the rate-limit store is unavailable; retry shortly', options);
  }
}

export interface LimiterOptions {
  redis?: Redis | undefined;
  /** With Redis: on a store error, keep serving from memory ('open') or refuse ('closed'). */
  onStoreError: 'open' | 'closed';
  /** Told once when the store starts failing and once when it answers again, not per request. */
  logger?: Logger;
  /** Counts each refusal by the subject whose allowance was spent. */
  metrics: LimitMetrics;
}

/** The subject a limit counts, from its name's suffix (`assistant-key`, `assistant-org`, `assistant-ip`); the agent's limits count projects. */
function subjectOf(name: string): LimitSubject {
  const suffix = name.slice(name.lastIndexOf('-') + 1);
  return suffix === 'key' || suffix === 'org' || suffix === 'ip' ? suffix : 'project';
}

/** One point taken (or refused) by one limiter, enough to give it back; the limiter's own. */
export interface Taken {
  from: RateLimiterAbstract;
  key: string;
  /** How long a count new in memory is kept: until its window ends. */
  options: { customDuration?: number };
  refused: boolean;
  remaining: number;
}

/**
 * Runs a memory count outside the async context of the request that asks for it (bound here, as
 * the module loads). A count new in memory sets its expiry timer, and a timer keeps the context it
 * was set in (the request's log fields and trace span, and through them its whole context,
 * request and response) until it fires: an hour or a day, for every address or key counted.
 */
const outsideRequests = AsyncResource.bind(<T>(count: () => T): T => count());

/** Consumes a point; a refusal is a result, any other failure (the store) is thrown. */
function counted(from: RateLimiterAbstract, key: string, options: Taken['options'] = {}): Promise<Taken> {
  const taking = from instanceof RateLimiterMemory ? outsideRequests(() => from.consume(key, 1, options)) : from.consume(key, 1);
  return taking.then(
    (res): Taken => ({ from, key, options, refused: false, remaining: res.remainingPoints }),
    (err: unknown): Taken => {
      if (err instanceof RateLimiterRes) return { from, key, options, refused: true, remaining: 0 };
      throw err;
    },
  );
}

async function giveBack(spent: readonly Taken[]): Promise<void> {
  // A point given back to a count that has just expired starts a new one, with its own timer.
  await Promise.allSettled(spent.map((t) => (t.from instanceof RateLimiterMemory ? outsideRequests(() => t.from.reward(t.key, 1, t.options)) : t.from.reward(t.key, 1))));
}

/**
 * A count new in memory is kept until its window ends, not a whole window from its first point:
 * its key names the window, so it is never asked for again after that, and each address counted
 * in a day window would otherwise stay for up to two days. Month counts never expire by timer.
 */
function untilWindowEnds(w: WindowSpan): Taken['options'] {
  return w.memorySeconds > 0 ? { customDuration: Math.max(1, Math.min(w.reset, w.memorySeconds)) } : {};
}

interface MemoryCounter {
  limiter: RateLimiterMemory;
  /** Set for month windows: the month whose counts this holds. */
  month: string | undefined;
}

/**
 * Fixed windows aligned to the clock (the hour, the UTC day, the UTC calendar
 * month), counted by rate-limiter-flexible in Redis or in memory. Checks are
 * taken in order; when one refuses, the points already taken are given back,
 * so a refused request spends nothing. With Redis and the 'open' policy, a
 * failing store is replaced by the memory counts until it answers again.
 */
export class Limiter {
  private readonly stores = new Map<string, RateLimiterRedis>();
  private readonly memories = new Map<string, MemoryCounter>();
  private storeFailing = false;
  private readonly clock = new WindowClock();

  constructor(private readonly options: LimiterOptions) {}

  private storeFor(check: LimitCheck, w: WindowSpan, redis: Redis): RateLimiterRedis {
    const id = `${check.name}:${check.points}:${w.storeSeconds}`;
    let store = this.stores.get(id);
    if (!store) {
      store = new RateLimiterRedis({
        keyPrefix: `quire:rl:${check.name}`,
        points: check.points,
        duration: w.storeSeconds,
        storeClient: redis,
        useRedisPackage: false,
        rejectIfRedisNotReady: true,
      });
      this.stores.set(id, store);
    }
    return store;
  }

  private memoryFor(check: LimitCheck, w: WindowSpan): RateLimiterMemory {
    const id = `${check.name}:${check.points}:${w.month ?? w.memorySeconds}`;
    let counter = this.memories.get(id);
    if (!counter) {
      // Month counts never expire by timer; a new month drops the past months' counts whole.
      if (w.month) for (const [other, c] of this.memories) if (c.month && c.month < w.month) this.memories.delete(other);
      counter = {
        limiter: new RateLimiterMemory({ keyPrefix: `quire:rl:${check.name}`, points: check.points, duration: w.memorySeconds }),
        month: w.month,
      };
      this.memories.set(id, counter);
    }
    return counter.limiter;
  }

  /** Takes one point from Redis, or from memory when there is no Redis or it fails under the 'open' policy. */
  private take(check: LimitCheck, w: WindowSpan, key: string): Promise<Taken> {
    const redis = this.options.redis;
    return redis ? this.takeFromStore(check, w, key, redis) : counted(this.memoryFor(check, w), key, untilWindowEnds(w));
  }

  private async takeFromStore(check: LimitCheck, w: WindowSpan, key: string, redis: Redis): Promise<Taken> {
    try {
      const taken = await counted(this.storeFor(check, w, redis), key);
      this.storeAnswered();
      return taken;
    } catch (err) {
      this.storeFailed(err);
      return counted(this.memoryFor(check, w), key, untilWindowEnds(w));
    }
  }

  private storeFailed(err: unknown): void {
    const open = this.options.onStoreError === 'open';
    if (!this.storeFailing) {
      this.storeFailing = true;
      this.options.logger?.warn(
        { err: err instanceof Error ? err.message : String(err), policy: this.options.onStoreError },
        open ? 'rate-limit store failed: counting in memory until it answers again' : 'rate-limit store failed: refusing requests until it answers again',
      );
    }
    if (!open) throw new LimitStoreUnavailableError({ cause: err });
  }

  private storeAnswered(): void {
    if (!this.storeFailing) return;
    this.storeFailing = false;
    this.options.logger?.info({ policy: this.options.onStoreError }, 'rate-limit store is back: counting in Redis again');
  }

  /**
   * Consumes one point of every check, or none; returns the tightest state, with the points taken
   * for `giveBack`.
   */
  async consume(checks: LimitCheck[], now = new Date()): Promise<Spent> {
    const spent: Taken[] = [];
    let tightest: Spent | undefined;
    for (const check of checks) {
      const w = this.clock.spanOf(check.window, now);
      const key = `${check.subject}:${w.suffix}`;
      let taken: Taken;
      try {
        taken = await this.take(check, w, key);
      } catch (err) {
        await giveBack(spent);
        throw err;
      }
      if (taken.refused) {
        // The refused point was counted too; give it back with the others, so a refused request spends nothing.
        await giveBack([...spent, taken]);
        this.options.metrics.rejected(subjectOf(check.name));
        throw new RateLimitedError(check, { limit: check.points, remaining: 0, resetSeconds: w.reset });
      }
      spent.push(taken);
      const state = { limit: check.points, remaining: taken.remaining, resetSeconds: w.reset, taken: spent };
      if (!tightest || state.remaining < tightest.remaining) tightest = state;
    }
    return tightest ?? { limit: 0, remaining: 0, resetSeconds: 0, taken: spent };
  }

  /**
   * Gives back the points a `consume` took, for a request refused after it consumed (a 4xx found
   * later, an engine that is down): each to the store and the window it was taken from, so a
   * window that ended meanwhile gains nothing in the new one, and a point taken from memory while
   * Redis failed is returned to memory. Never throws: a point that cannot be returned (the store
   * failing now) stays spent.
   */
  giveBack(spent: Spent): Promise<void> {
    return giveBack(spent.taken);
  }
}
