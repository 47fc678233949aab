/**
 * Stateless API replicas: two API processes' worth of clients (their own job store, tenant store
 * and Temporal client each, one Koa app each) over the same stores and the same Temporal. A job
 * created through one is listed and read through the other as soon as the create answers.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { sharedRedis } from '../../support/redis.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { call } from './agent-api.js';

const JOBS = 8;

for (const stores of ['files', 'Redis'] as const) {
  describe(`agent jobs across two API replicas (${stores})`, function () {
    this.timeout(60_000);

    it('lists and reads a job through the other replica at once', async () => {
      // A model is configured (else creating a job is refused); no worker runs, so it is never called.
      const env: Record<string, string> = { QUIRE_MODEL: 'test-model', ...(stores === 'Redis' ? { REDIS_URL: (await sharedRedis()).url } : {}) };
      // No worker polls this queue: the jobs stay active, and only the API's own writes are seen.
      const taskQueue = `replicas-${randomUUID()}`;
      const one = await testServices({ env, taskQueue });
      const other = await testServices({ env: { ...env, QUIRE_DATA_DIR: one.config.dataDir }, taskQueue });
      const org = `org-${randomUUID().slice(0, 8)}`;
      const { adminKey } = await seedOrg(one, org);
      const project = `docs-${randomUUID().slice(0, 8)}`;
      await one.tenants.putProject({ id: project, orgId: org, repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
      const [a, b] = [(await serve(createApp(one))).url, (await serve(createApp(other))).url];

      for (let i = 0; i < JOBS; i++) {
        const created = await call<JobView>(`${a}/v2/agent/${project}/job`, 'POST', adminKey, { prompt: `job ${i}` });
        assert.equal(created.status, 201);
        const listed = await call<{ jobs: JobView[] }>(`${b}/v2/agent/${project}/jobs?limit=100`, 'GET', adminKey);
        assert.equal(listed.status, 200);
        assert.deepEqual(listed.body.jobs[0], created.body, `job ${i} is the newest in the other replica's list`);
        const read = await call<JobView>(`${b}/v2/agent/${project}/job/${created.body.id}`, 'GET', adminKey);
        assert.deepEqual(read.body, created.body);
      }
      const all = await call<{ jobs: JobView[] }>(`${b}/v2/agent/${project}/jobs?limit=100`, 'GET', adminKey);
      assert.equal(all.body.jobs.length, JOBS);
    });
  });
}
