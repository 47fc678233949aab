/**
 * A job create or a follow-up message that Quire refuses after it counted the request (its
 * project being deleted, an Idempotency-Key reused with another prompt, Temporal down) spends
 * nothing of the project's hourly allowance; an accepted one still spends. Over real HTTP, the
 * Temporal dev server (no worker polls) or none at all, with the limits counted in memory and in
 * a real redis-server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { newJobRecord, type JobView } from '../../../core/jobs/index.js';
import { consumeAgentLimit } from '../../../core/limits/index.js';
import { freePort, startRedis } from '../../support/redis.js';
import { serve, servicesOn, testConfig } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { call } from './agent-api.js';

const LIMITS = { agentCreatesPerHour: 5, agentMessagesPerHour: 5 };
const PROJECT = { branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] };

/** The API over its own data directory, with `temporal` as its Temporal and the limits in memory or Redis. */
async function world(store: 'memory' | 'redis', temporal: string) {
  const redis: Record<string, string> = store === 'redis' ? { REDIS_URL: (await startRedis()).url } : {};
  const services = await servicesOn(await testConfig({ TEMPORAL_ADDRESS: temporal, TEMPORAL_TASK_QUEUE: `no-worker-${randomUUID()}`, QUIRE_MODEL: 'test-model', ...redis }));
  await services.tenants.addOrg('acme', LIMITS);
  const adminKey = (await services.tenants.createKey('acme', 'admin')).secret;
  await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', ...PROJECT });
  const base = (await serve(createApp(services))).url;
  const create = (body: unknown = { prompt: 'Fix the typo' }, headers: Record<string, string> = {}) =>
    call<JobView & { code?: string }>(`${base}/v2/agent/docs/job`, 'POST', adminKey, body, headers);
  const message = (jobId: string, prompt: string, headers: Record<string, string> = {}) =>
    call<JobView & { code?: string }>(`${base}/v2/agent/docs/job/${jobId}/message`, 'POST', adminKey, { prompt }, headers);
  /** What is left of an allowance, read by spending one more unit of it as the API would. */
  const left = async (kind: 'create' | 'message') => (await consumeAgentLimit(services.limiter, LIMITS, 'docs', kind)).remaining;
  return { services, create, message, left };
}

/** A job written to the database directly, as a create that reached Temporal would have left it. */
async function storedJob(services: ApiServices): Promise<string> {
  const job = newJobRecord({ projectId: 'docs', repository: '/srv/docs.git', ref: 'main', model: 'test-model' });
  await services.jobs.create(job, [{ id: `first:${job.id}`, prompt: 'Fix the typo' }]);
  return job.id;
}

for (const store of ['memory', 'redis'] as const) {
  describe(`a refused job create or message spends no limit (limits in ${store})`, function () {
    this.timeout(120_000);

    it('refusals found after counting (422, 409) give the unit back and carry no RateLimit headers; accepted creates spend', async () => {
      const w = await world(store, (await temporalEnv()).address);
      const first = await w.create();
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('ratelimit-remaining'), '4');

      // A follow-up whose Idempotency-Key was used with another prompt: refused once counted.
      await w.services.jobs.putMessage('docs', first.body.id, { id: 'key:retry-key-1', prompt: 'the first prompt' });
      for (let i = 0; i < 3; i++) {
        const reused = await w.message(first.body.id, 'another prompt', { 'Idempotency-Key': 'retry-key-1' });
        assert.equal(reused.status, 422, JSON.stringify(reused.body));
        assert.equal(reused.headers.get('ratelimit-remaining'), null, 'a refusal tells of no unit spent');
      }

      const second = await w.create();
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('ratelimit-remaining'), '3', 'the second create spends one more, and only one');

      // Its delete begins: every create and message is refused in the job store's transaction, after counting.
      assert.ok(await w.services.tenants.beginProjectDeletion('docs'));
      for (let i = 0; i < 3; i++) {
        const create = await w.create();
        assert.equal(create.status, 409, JSON.stringify(create.body));
        assert.equal(create.headers.get('ratelimit-remaining'), null);
        assert.equal((await w.message(first.body.id, 'more')).status, 409);
      }
      assert.equal(await w.left('create'), 2, 'two creates spent: the refused ones gave theirs back');
      assert.equal(await w.left('message'), 4, 'no message spent');
    });

    it('a create and a follow-up refused with 503 while Temporal is unreachable give the unit back', async () => {
      // Nothing listens on this port: every call to Temporal fails to connect.
      const w = await world(store, `127.0.0.1:${await freePort()}`);
      const jobId = await storedJob(w.services);
      for (let i = 0; i < 3; i++) {
        const create = await w.create();
        assert.equal(create.status, 503, JSON.stringify(create.body));
        assert.equal(create.headers.get('ratelimit-remaining'), null);
        const message = await w.message(jobId, 'And the other one');
        assert.equal(message.status, 503, JSON.stringify(message.body));
        assert.equal(message.headers.get('ratelimit-remaining'), null);
      }
      assert.equal(await w.left('create'), 4, 'nothing spent by six refusals');
      assert.equal(await w.left('message'), 4);
    });

    it('two creates with one Idempotency-Key at once spend one unit: the one that found the job the other made gives its unit back', async () => {
      const w = await world(store, (await temporalEnv()).address);
      // Both creates pass the check for a job of their key before either writes it: each write waits for the other's.
      const { create } = w.services.jobs;
      let arrived = 0;
      let bothArrived!: () => void;
      const both = new Promise<void>((resolve) => (bothArrived = resolve));
      w.services.jobs.create = async (record, messages) => {
        if (++arrived === 2) bothArrived();
        await both;
        return create(record, messages);
      };
      const key = { 'Idempotency-Key': `race-${randomUUID()}` };
      const [a, b] = await Promise.all([w.create(undefined, key), w.create(undefined, key)]);
      w.services.jobs.create = create;
      assert.equal(arrived, 2, 'both creates wrote');
      assert.deepEqual([a.status, b.status], [201, 201]);
      assert.equal(a.body.id, b.body.id, 'one job');
      const told = [a.headers.get('ratelimit-remaining'), b.headers.get('ratelimit-remaining')];
      const [made, found] = told[0] === null ? [told[1], told[0]] : told;
      assert.ok(found === null && (made === '3' || made === '4'), `the one that made the job tells of its unit, the other of none: ${JSON.stringify(told)}`);
      assert.equal(await w.left('create'), 3, 'one create spent');
    });
  });
}
