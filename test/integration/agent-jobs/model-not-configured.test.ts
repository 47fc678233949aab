/**
 * With no language model configured a job is still created; its turn fails
 * permanently with a clear reason, and a later message resumes it (here it
 * fails again for the same reason). Real API, worker, git and Temporal.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { call, pollJob } from './agent-api.js';

describe('agent job without a configured model', function () {
  this.timeout(60_000);

  it('fails with model_not_configured, and a follow-up message resumes it', async () => {
    const repo = await createDocsRepo({ pages: 2 });
    const services = await testServices({ taskQueue: `nomodel-${randomUUID()}` });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({
      id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [],
    });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const base = (await serve(createApp(services))).url;

    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Fix typos' });
    assert.equal(created.status, 201);
    assert.equal(created.body.model, '');
    const failed = await pollJob(base, adminKey, 'docs', created.body.id, (j) => j.status !== 'active');
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'model_not_configured');
    assert.match(failed.error?.message ?? '', /QUIRE_MODEL/);
    assert.equal(failed.prLink, null);

    const resumed = await call<JobView>(`${base}/v2/agent/docs/job/${created.body.id}/message`, 'POST', adminKey, { prompt: 'Try again' });
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.status, 'active');
    assert.equal(resumed.body.error, undefined);
    const again = await pollJob(base, adminKey, 'docs', created.body.id, (j) => j.status !== 'active');
    assert.equal(again.status, 'failed');
    assert.ok(again.updatedAt > failed.updatedAt);
  });
});
