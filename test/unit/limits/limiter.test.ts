import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Redis } from 'ioredis';
import { Limiter, LimitStoreUnavailableError, RateLimitedError, type LimitCheck } from '../../../core/limits/index.js';
import { WindowClock, windowOf } from '../../../core/limits/windows.js';
import { createLogger } from '../../../core/logger.js';
import { createMetrics } from '../../../core/telemetry/index.js';

const metrics = createMetrics({ orgLabel: false }).limits;

const monthly = (points: number, subject = 'key_1'): LimitCheck[] => [{ name: 'assistant-key', subject, points, window: 'month' }];

/**
 * A Redis client that never connects: every command is refused at once as
 * "not ready", which is what the limiter sees while Redis is down.
 */
function unreachableRedis(): Redis {
  const redis = new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  after(() => redis.disconnect());
  return redis;
}

function capturingLogger() {
  const lines: Array<{ level: string; msg: string }> = [];
  const out = new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(JSON.parse(chunk.toString()) as { level: string; msg: string }), done()) });
  return { logger: createLogger('info', 'test', out), lines };
}

/** Spends `n` points a few milliseconds apart: a count that expired early would show between them. */
async function spend(limiter: Limiter, checks: LimitCheck[], n: number, now?: Date): Promise<number[]> {
  const remaining: number[] = [];
  for (let i = 0; i < n; i++) {
    remaining.push((await limiter.consume(checks, now)).remaining);
    await sleep(5);
  }
  return remaining;
}

describe('limiter windows', () => {
  it('every in-memory expiry fits a Node timer (at most 2^31-1 ms)', () => {
    for (const month of [0, 1, 6, 11]) {
      const now = new Date(Date.UTC(2026, month, 15, 12));
      for (const window of ['hour', 'day', 'month'] as const) {
        const w = windowOf(window, now);
        assert.ok(w.memorySeconds * 1000 <= 2 ** 31 - 1, `${window} in month ${month}: ${w.memorySeconds}s`);
        assert.ok(w.reset > 0 && w.reset <= w.storeSeconds, `${window} resets within its window`);
      }
    }
    assert.equal(windowOf('month', new Date(Date.UTC(2026, 1, 10))).storeSeconds, 28 * 86_400);
  });

  it('the clock remembers a span for its second only, and it equals a fresh one at every millisecond', () => {
    const clock = new WindowClock();
    // Across the end of a month, a day and an hour, millisecond by millisecond around each second.
    const end = Date.UTC(2026, 1, 1);
    for (let ms = end - 2500; ms < end + 2500; ms += 7) {
      for (const window of ['hour', 'day', 'month'] as const) {
        const now = new Date(ms);
        assert.deepEqual(clock.spanOf(window, now), windowOf(window, now), `${window} at ${now.toISOString()}`);
      }
    }
    const at = new Date(Date.UTC(2026, 5, 3, 10, 0, 0, 100));
    assert.equal(clock.spanOf('hour', at), clock.spanOf('hour', new Date(at.getTime() + 850)), 'one span within a second');
    assert.notEqual(clock.spanOf('hour', at), clock.spanOf('hour', new Date(at.getTime() + 900)), 'a new one the next second');
  });
});

describe('limiter month windows in memory', () => {
  it('a monthly limit of 3 refuses request 4 (no Redis)', async () => {
    const limiter = new Limiter({ onStoreError: 'open', metrics });
    assert.deepEqual(await spend(limiter, monthly(3), 3), [2, 1, 0]);
    await assert.rejects(limiter.consume(monthly(3)), (err: unknown) => {
      assert.ok(err instanceof RateLimitedError);
      assert.equal(err.check.name, 'assistant-key');
      assert.ok(err.state.resetSeconds > 0);
      return true;
    });
    // Another key has its own count.
    assert.equal((await limiter.consume(monthly(3, 'key_2'))).remaining, 2);
  });

  it('the fail-open insurance counts month windows too, and logs the switch once', async () => {
    const { logger, lines } = capturingLogger();
    const limiter = new Limiter({ redis: unreachableRedis(), onStoreError: 'open', logger, metrics });
    assert.deepEqual(await spend(limiter, monthly(3), 3), [2, 1, 0]);
    await assert.rejects(limiter.consume(monthly(3)), RateLimitedError);
    const warnings = lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1, 'one warning for the switch, not one per request');
    assert.match(warnings[0]?.msg ?? '', /counting in memory/);
  });

  it('fail-closed refuses with LimitStoreUnavailableError and logs the outage once', async () => {
    const { logger, lines } = capturingLogger();
    const limiter = new Limiter({ redis: unreachableRedis(), onStoreError: 'closed', logger, metrics });
    await assert.rejects(limiter.consume(monthly(3)), LimitStoreUnavailableError);
    await assert.rejects(limiter.consume(monthly(3)), LimitStoreUnavailableError);
    assert.equal(lines.filter((l) => l.level === 'warn').length, 1);
  });

  it('a new month starts from zero and drops the past months from memory', async () => {
    const limiter = new Limiter({ onStoreError: 'open', metrics });
    const january = new Date(Date.UTC(2026, 0, 31, 23, 59));
    const february = new Date(Date.UTC(2026, 1, 1, 0, 1));
    await spend(limiter, monthly(2), 2, january);
    await assert.rejects(limiter.consume(monthly(2), january), RateLimitedError);
    assert.deepEqual(await spend(limiter, monthly(2), 2, february), [1, 0]);
    // Only February's counts remain: the limiter keeps one memory counter per live month and limit.
    assert.equal(limiter['memories'].size, 1);
  });

  it('a refused request spends nothing in the other windows', async () => {
    const limiter = new Limiter({ onStoreError: 'open', metrics });
    const checks = (perKey: number): LimitCheck[] => [
      { name: 'per-org', subject: 'acme', points: 3, window: 'hour' },
      { name: 'per-key', subject: 'key_1', points: perKey, window: 'month' },
    ];
    await limiter.consume(checks(1));
    await assert.rejects(limiter.consume(checks(1)), RateLimitedError);
    await assert.rejects(limiter.consume(checks(1)), RateLimitedError);
    // The org's hour still holds 2 of its 3.
    assert.equal((await limiter.consume(checks(5))).remaining, 1);
  });

  it('gives back every point a consume took, each to the window it was taken in', async () => {
    const limiter = new Limiter({ onStoreError: 'open', metrics });
    const checks: LimitCheck[] = [
      { name: 'per-org', subject: 'acme', points: 3, window: 'hour' },
      { name: 'per-key', subject: 'key_1', points: 2, window: 'month' },
    ];
    const january = new Date(Date.UTC(2026, 0, 31, 23, 30));
    const spent = await limiter.consume(checks, january);
    assert.equal(spent.remaining, 1);
    await limiter.giveBack(spent);
    assert.equal((await limiter.consume(checks, january)).remaining, 1, 'both windows are whole again');
    // A point given back after its window ended adds nothing to the new one.
    const late = await limiter.consume(checks, january);
    const february = new Date(Date.UTC(2026, 1, 1, 0, 30));
    assert.equal((await limiter.consume(checks, february)).remaining, 1);
    await limiter.giveBack(late);
    assert.equal((await limiter.consume(checks, february)).remaining, 0);
  });

  it('counts each refusal by the subject whose allowance was spent', async () => {
    const own = createMetrics({ orgLabel: false });
    const limiter = new Limiter({ onStoreError: 'open', metrics: own.limits });
    const ip: LimitCheck = { name: 'assistant-ip', subject: '10.0.0.1', points: 1, window: 'day' };
    const project: LimitCheck = { name: 'agent-create', subject: 'docs', points: 1, window: 'hour' };
    await limiter.consume([ip, project]);
    await assert.rejects(limiter.consume([ip]), RateLimitedError);
    await assert.rejects(limiter.consume([ip]), RateLimitedError);
    await assert.rejects(limiter.consume([project]), RateLimitedError);
    const values = (await own.registry.getSingleMetric('quire_rate_limit_rejections_total')!.get()).values;
    assert.deepEqual(
      values.map((v) => [v.labels.limit, v.value]).sort(),
      [['ip', 2], ['project', 1]],
    );
  });
});

describe('limiter memory and the requests it counts', () => {
  it('an hour or day count kept in memory does not keep the request that started it', async () => {
    // The request's async context (its log fields, its trace) holds the whole request; a count's
    // expiry timer set inside it would keep the request, its body and its response for the window.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const requests = new AsyncLocalStorage<{ body: Uint8Array }>();
    const limiter = new Limiter({ onStoreError: 'open', metrics });
    const kept: Array<WeakRef<object>> = [];
    const request = async (i: number) => {
      const started = { body: new Uint8Array(100_000) };
      kept.push(new WeakRef(started));
      await requests.run(started, () =>
        limiter.consume([
          { name: 'assistant-ip', subject: `10.0.0.${i}`, points: 3, window: 'day' },
          { name: 'assistant-org', subject: 'acme', points: 1000, window: 'hour' },
        ]),
      );
    };
    for (let i = 0; i < 50; i++) await request(i);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.equal(kept.filter((ref) => ref.deref() !== undefined).length, 0, 'requests kept after they ended');
    assert.equal(limiter['memories'].size, 2, 'the counts themselves are kept');
  });

  it('an hour or day count in memory expires when its window ends, not a whole window after its first point', async () => {
    // Its key names the window: past the window's end it is never asked for again, and an address
    // counted late in a day would otherwise stay in memory well into the next one.
    const limiter = new Limiter({ onStoreError: 'open', metrics });
    const now = Date.now();
    await limiter.consume([
      { name: 'assistant-ip', subject: '10.0.0.1', points: 3, window: 'day' },
      { name: 'assistant-org', subject: 'acme', points: 1000, window: 'hour' },
    ]);
    const expiries = [...limiter['memories'].values()].flatMap((m) => {
      const storage = (m.limiter as unknown as { _memoryStorage: { _storage: Map<string, { expiresAt: number }> } })._memoryStorage._storage;
      return [...storage.values()].map((record) => record.expiresAt);
    });
    assert.equal(expiries.length, 2);
    const ends = [3_600_000, 86_400_000].map((window) => (Math.floor(now / window) + 1) * window);
    for (const expiry of expiries) assert.ok(ends.some((end) => Math.abs(expiry - end) <= 2_000), `expires at ${new Date(expiry).toISOString()}, not at its window's end`);
  });
});
