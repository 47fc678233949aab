/**
 * A create with an Idempotency-Key that wrote its job and then could not reach Temporal answered
 * 503 and left the job without a workflow. Its retry starts that workflow (and spends the create
 * the first attempt gave back) instead of answering with a job nothing will ever run; a retry
 * after that is answered with the job and starts nothing. Real HTTP, the Temporal dev server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import { jobIdForKey, newJobRecord, type JobView } from '../../../core/jobs/index.js';
import { serve, servicesOn, testConfig } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { call } from './agent-api.js';

describe('a retried create whose first attempt never started its workflow', function () {
  this.timeout(120_000);

  it('starts the workflow, spends the create once, and a later retry starts nothing', async () => {
    const temporal = await temporalEnv();
    const services = await servicesOn(await testConfig({ TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: `no-worker-${randomUUID()}`, QUIRE_MODEL: 'test-model' }));
    await services.tenants.addOrg('acme', { agentCreatesPerHour: 5, agentMessagesPerHour: 5 });
    const adminKey = (await services.tenants.createKey('acme', 'admin')).secret;
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;

    // What the first attempt left: the record and first message of the key's job, and no workflow.
    const key = `retry-${randomUUID()}`;
    const jobId = jobIdForKey('docs', key);
    const left = newJobRecord({ projectId: 'docs', repository: '/srv/docs.git', ref: 'main', model: 'test-model', jobId });
    await services.jobs.create(left, [{ id: `first:${jobId}`, prompt: 'Fix the typo' }]);
    const handle = temporal.client.workflow.getHandle(agentJobWorkflowId(jobId));
    await assert.rejects(handle.describe(), /not found/i, 'no workflow yet');

    const retry = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Fix the typo' }, { 'Idempotency-Key': key });
    assert.equal(retry.status, 201, JSON.stringify(retry.body));
    assert.equal(retry.body.id, jobId);
    assert.equal(retry.headers.get('ratelimit-remaining'), '4', 'the retry that started the job spent its create');
    const run = await handle.describe();
    assert.equal(run.status.name, 'RUNNING');

    const again = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Fix the typo' }, { 'Idempotency-Key': key });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('ratelimit-remaining'), null, 'a retry of a started job spends nothing');
    assert.equal((await handle.describe()).runId, run.runId, 'and starts no other run');
  });
});
