import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../../core/logger.js';
import { startRedis } from '../../support/redis.js';
import { assistantWorld, userMessage } from './harness.js';

const body = () => ({ fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });

/**
 * The assistant on the services the API entry point builds with REDIS_URL set: the rate limits in
 * a real redis-server, keys and domains in the database (which Redis never holds), logs captured.
 */
async function redisWorld(policy: 'open' | 'closed') {
  const server = await startRedis();
  const logs: string[] = [];
  const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (logs.push(chunk.toString()), done()) }));
  const env = { REDIS_URL: server.url, QUIRE_RATE_LIMIT_ON_STORE_ERROR: policy };
  // Readiness is about Redis and the database here: this world runs without Temporal.
  const world = await assistantWorld({ env, logger, patch: (s) => ({ probes: { redis: s.probes.redis!, database: s.probes.database! } }) });
  return { ...world, server, logs };
}

async function read(res: Response): Promise<{ status: number; text: string }> {
  return { status: res.status, text: await res.text() };
}

describe('assistant with Redis stopped mid-run', () => {
  it('fail-open: every key keeps being served (keys live in the database), the limiter failure is logged once', async () => {
    const w = await redisWorld('open');
    assert.equal((await read(await w.post('v2', body()))).status, 200);
    const created = (await w.services.tenants.createKey('acme', 'assistant')).secret;
    await w.server.stop();

    for (let i = 0; i < 3; i++) {
      const answer = await read(await w.post('v2', body()));
      assert.equal(answer.status, 200);
      assert.match(answer.text, /"type":"text-delta"/);
      assert.ok(answer.text.endsWith('data: [DONE]\n\n'), 'the whole answer streams');
    }
    // A key made just before the outage: checked in the database, not in Redis.
    assert.equal((await read(await w.post('v2', body(), { key: created }))).status, 200);

    // Ready but degraded: a load balancer keeps the instance, an operator sees why.
    const ready = await fetch(`${w.url}/readyz`);
    assert.equal(ready.status, 200);
    const readiness = (await ready.json()) as { status: string; checks: Record<string, string> };
    assert.equal(readiness.status, 'degraded');
    assert.match(readiness.checks.redis ?? '', /^down/);

    assert.equal(w.logs.filter((l) => /rate-limit store failed/.test(l)).length, 1, 'one limiter warning');
    assert.ok(!w.logs.some((l) => l.includes(w.org.assistantKey)), 'no secret in the logs');
    await w.close();
  });

  it('fail-closed: the assistant answers 503', async () => {
    const w = await redisWorld('closed');
    assert.equal((await read(await w.post('v2', body()))).status, 200);
    await w.server.stop();
    const res = await w.post('v2', body());
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { code: string }).code, 'unavailable');
    assert.equal((await fetch(`${w.url}/readyz`)).status, 503, 'fail-closed: not ready without Redis');
    await w.close();
  });

  it('revocation is immediate, during a Redis outage too', async () => {
    const w = await redisWorld('open');
    assert.equal((await read(await w.post('v2', body()))).status, 200);
    await w.server.stop();
    const keyId = (await w.services.tenants.listKeys('acme')).find((k) => k.kind === 'assistant')?.id;
    assert.ok(keyId);
    await w.services.tenants.revokeKey(keyId);
    assert.equal((await read(await w.post('v2', body()))).status, 401);
    await w.close();
  });
});
