/**
 * A follow-up and an archive are update-with-start calls to Temporal; with Temporal unreachable
 * they answer 503 `unavailable` with `Retry-After`, never 500. The jobs are written to the
 * database directly (creating one needs Temporal too), as the create path would have left them.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { newJobRecord } from '../../../core/jobs/index.js';
import type { JobStatus } from '../../../core/jobs/job-record.js';
import { freePort } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, testConfig } from '../../support/services.js';
import { call } from './agent-api.js';

describe('follow-ups and archives while Temporal is unreachable', function () {
  this.timeout(120_000);
  let base: string;
  let adminKey: string;
  let services: ApiServices;

  before(async () => {
    // Nothing listens on this port: every call to Temporal fails to connect.
    const env = { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, QUIRE_MODEL: 'test-model' };
    // The platform closes its Temporal client at suite end.
    services = await servicesOn(await testConfig(env));
    ({ adminKey } = await seedOrg(services, 'acme'));
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    base = (await serve(createApp(services))).url;
  });

  async function storedJob(status: JobStatus): Promise<string> {
    const job = { ...newJobRecord({ projectId: 'docs', repository: '/srv/docs.git', ref: 'main', model: 'test-model' }), status };
    await services.jobs.create(job);
    await services.jobs.putMessage('docs', job.id, { id: `first:${job.id}`, prompt: 'Fix the typo' });
    return job.id;
  }

  const assertUnavailable = (reply: { status: number; body: { code?: string }; headers: Headers }, what: string) => {
    assert.equal(reply.status, 503, `${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    assert.equal(reply.body.code, 'unavailable', what);
    assert.ok(Number(reply.headers.get('retry-after')) >= 1, `${what}: Retry-After ${reply.headers.get('retry-after')}`);
  };

  for (const status of ['active', 'completed', 'failed'] as const) {
    it(`a follow-up on a job that is ${status}: 503 with Retry-After`, async () => {
      const id = await storedJob(status);
      const reply = await call<{ code?: string }>(`${base}/v2/agent/docs/job/${id}/message`, 'POST', adminKey, { prompt: 'And the other one' });
      assertUnavailable(reply, `message on ${status}`);
      // The job is as it was: only the workflow writes its state.
      assert.equal((await services.jobs.get('docs', id))?.status, status);
    });

    it(`archiving a job that is ${status}: 503 with Retry-After`, async () => {
      const id = await storedJob(status);
      const reply = await call<{ code?: string }>(`${base}/v2/agent/docs/job/${id}/archive`, 'POST', adminKey);
      assertUnavailable(reply, `archive of ${status}`);
      assert.equal((await services.jobs.get('docs', id))?.status, status);
    });
  }
});
