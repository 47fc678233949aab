/**
 * The worker's `/readyz` (on its metrics port, where the Helm chart probes it) tells whether the
 * worker can work: 200 with each engine's check once it polls Temporal, 503 naming the engine that
 * stopped answering, 200 again once it answers; `/healthz` stays 200 throughout. Real worker
 * process, real Temporal dev server, real redis-server (stopped and started again).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { freePort, startRedis } from '../../support/redis.js';
import { tempDir } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';

interface Answer {
  status: number;
  body: { status?: string; error?: string; code?: string; checks?: Record<string, string> };
}

async function get(url: string): Promise<Answer> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** Polls `url` until `ok` holds (or fails with the last answer and the worker's output). */
async function until(url: string, ok: (a: Answer) => boolean, output: () => string): Promise<Answer> {
  let last: Answer | string = 'no answer';
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    last = await get(url).catch((err: unknown) => String(err));
    if (typeof last !== 'string' && ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`last answer ${JSON.stringify(last)}\nworker output:\n${output()}`);
}

describe('the worker readiness probe', function () {
  this.timeout(180_000);

  it('is ready once the worker polls and its engines answer, not ready while one is down, and ready again after', async () => {
    const redis = await startRedis();
    const port = await freePort();
    const worker = spawnWorker({
      TEMPORAL_ADDRESS: (await temporalEnv()).address,
      TEMPORAL_TASK_QUEUE: `readiness-${randomUUID()}`,
      QUIRE_DATA_DIR: await tempDir(),
      QUIRE_EMBEDDER: 'none',
      REDIS_URL: redis.url,
      // Redis down is then an outage, not a degraded mode the worker serves through.
      QUIRE_RATE_LIMIT_ON_STORE_ERROR: 'closed',
      QUIRE_WORKER_METRICS_PORT: String(port),
    });
    const base = `http://127.0.0.1:${port}`;

    const ready = await until(`${base}/readyz`, (a) => a.status === 200, worker.output);
    assert.equal(ready.body.status, 'ok');
    assert.deepEqual(Object.keys(ready.body.checks ?? {}).sort(), ['database', 'index', 'redis', 'temporal', 'worker']);
    assert.ok(Object.values(ready.body.checks ?? {}).every((c) => c === 'ok'), JSON.stringify(ready.body));

    await redis.stop();
    const down = await until(`${base}/readyz`, (a) => a.status === 503, worker.output);
    assert.equal(down.body.code, 'unavailable');
    assert.match(down.body.error ?? '', /^not ready: redis unavailable$/);
    assert.match(down.body.checks?.redis ?? '', /^down: /);
    assert.equal(down.body.checks?.temporal, 'ok');
    assert.equal((await get(`${base}/healthz`)).status, 200, 'the process itself is alive');

    await startRedis(redis.port);
    const back = await until(`${base}/readyz`, (a) => a.status === 200, worker.output);
    assert.equal(back.body.checks?.redis, 'ok');
  });
});
