import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { call } from '../agent-jobs/agent-api.js';
import { startRedis } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, testConfig } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { assistantWorld, userMessage } from '../assistant/harness.js';

const question = () => ({ fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });

/**
 * The assistant on the services the entry point builds with REDIS_URL, and a
 * request caught inside Redis when it dies: Redis is paused (CLIENT PAUSE, so
 * the request's command waits on the wire) and then killed with SIGKILL.
 */
async function redisDiesMidRequest(policy: 'open' | 'closed'): Promise<Response> {
  const server = await startRedis();
  const env = { REDIS_URL: server.url, QUIRE_RATE_LIMIT_ON_STORE_ERROR: policy };
  const world = await assistantWorld({ env });
  const built = world.services;
  onSuiteEnd(() => world.close());
  assert.equal((await world.post('v2', question())).status, 200, 'served while Redis answers');

  const admin = new Redis(server.url);
  await admin.call('CLIENT', 'PAUSE', '10000', 'ALL');
  admin.disconnect();
  // The first thing a request does is read its key from Redis; once it has asked, Redis dies.
  const authenticate = built.tenants.authenticate.bind(built.tenants);
  let asked!: () => void;
  const askedRedis = new Promise<void>((resolve) => (asked = resolve));
  built.tenants.authenticate = (secret) => {
    const answer = authenticate(secret);
    asked();
    return answer;
  };
  const pending = world.post('v2', question());
  await askedRedis;
  server.process.kill('SIGKILL');
  await once(server.process, 'exit');
  return pending;
}

describe('engine errors are 503 with Retry-After, never 500', function () {
  this.timeout(120_000);

  it('Redis dying mid-request: 503 under the closed policy', async () => {
    const res = await redisDiesMidRequest('closed');
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { code: string }).code, 'unavailable');
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
  });

  it('Redis dying mid-request: served under the open policy', async () => {
    const res = await redisDiesMidRequest('open');
    assert.equal(res.status, 200);
    assert.ok((await res.text()).endsWith('data: [DONE]\n\n'));
  });

  it('Temporal refusing follow-ups (RESOURCE_EXHAUSTED: too many updates in flight while no worker runs): 503, not 500', async () => {
    // No worker polls this queue, so every follow-up waits in Temporal; past its in-flight limit (10 per
    // workflow on the dev server) Temporal answers RESOURCE_EXHAUSTED, as it did with a stalled worker.
    // The API's own Temporal client (its retry policy decides what surfaces), on the suite's dev server.
    // A model is configured, else creating the job is refused; no worker runs, so it is never called.
    const env = { TEMPORAL_ADDRESS: (await temporalEnv()).address, TEMPORAL_TASK_QUEUE: `stalled-${randomUUID()}`, QUIRE_MODEL: 'test-model' };
    const services = await servicesOn(await testConfig(env));
    const { adminKey } = await seedOrg(services, 'busy-org');
    await services.tenants.putProject({ id: 'busy-docs', orgId: 'busy-org', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;
    const created = await call<JobView>(`${base}/v2/agent/busy-docs/job`, 'POST', adminKey, { prompt: 'Fix the typo' });
    assert.equal(created.status, 201);
    const replies = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        call<{ code: string }>(`${base}/v2/agent/busy-docs/job/${created.body.id}/message`, 'POST', adminKey, { prompt: `follow-up ${i}` }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    assert.ok(!statuses.some((s) => s >= 500 && s !== 503), `statuses: ${statuses.join(', ')}`);
    const refused = replies.filter((r) => r.status === 503);
    assert.ok(refused.length >= 4, `at least the follow-ups past the in-flight limit are refused: ${statuses.join(', ')}`);
    assert.ok(refused.some((r) => /busy/.test(JSON.stringify(r.body))), 'Temporal said RESOURCE_EXHAUSTED at least once');
    for (const r of refused) {
      assert.equal(r.body.code, 'unavailable');
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
    }
  });
});
