/**
 * An operator terminates a job's workflow in the middle of a turn (as from the Temporal UI): the
 * run can no longer record the job, so the retention sweep fails it with `run_terminated`, and a
 * follow-up afterwards starts a new run that completes. The real API over HTTP, a real worker, the
 * Temporal dev server, a real git repository and the scripted model.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import { agentJobWorkflowId } from '../../../core/contracts/agent-job.js';
import { JobRetention, newJobRecord, stoppedRunOf, type JobView } from '../../../core/jobs/index.js';
import { createLogger } from '../../../core/logger.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { call, pollJob } from './agent-api.js';

/** The sweep as core/platform builds it (a job is looked at after a minute unchanged), its clock `minutes` ahead instead of waiting. */
function strandedSweep(services: Awaited<ReturnType<typeof testServices>>, minutes: number): JobRetention {
  return new JobRetention({
    database: services.database,
    jobs: services.jobs,
    deliveries: services.webhooks,
    threads: { sweep: async () => 0 },
    logger: createLogger('silent', 'test'),
    retentionDays: services.config.retention.jobDays,
    idleArchive: { days: services.config.retention.jobIdleArchiveDays, archive: async () => undefined },
    stranded: { events: services.events, afterMs: 60_000, stoppedRun: (job) => stoppedRunOf(services.temporal, job) },
    now: () => Date.now() + minutes * 60_000,
  });
}

describe('a job whose workflow an operator terminates mid-turn', function () {
  this.timeout(180_000);

  it('is failed by the sweep with run_terminated and a job.failed event; a follow-up then starts a new run', async () => {
    let turnRunning!: () => void;
    const running = new Promise<void>((resolve) => (turnRunning = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let followUpCalls = 0;
    const model = await startFakeModel(async (req) => {
      // Told apart by their prompts: the stopped run's activity may still ask once it is released.
      if (!JSON.stringify(req.body).includes('Try once more')) {
        turnRunning();
        // The model blocks until the run is gone; what it answers then goes nowhere.
        await released;
        return { text: 'too late' };
      }
      return followUpCalls++ === 0
        ? { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }] }
        : { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget', summary: 'Said gadget.' } }] };
    });
    const repo = await createDocsRepo({ pages: 2, withNav: true });
    const services = await testServices({
      taskQueue: `stopped-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', QUIRE_AGENT_HEARTBEAT_SECONDS: '4' },
    });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const base = (await serve(createApp(services))).url;
    const get = async (id: string) => (await call<JobView>(`${base}/v2/agent/docs/job/${id}`, 'GET', adminKey)).body;

    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Say gadget on page 1' });
    assert.equal(created.status, 201);
    const jobId = created.body.id;
    await running;
    const handle = services.temporal.workflow.getHandle(agentJobWorkflowId(jobId));
    const stoppedRunId = (await handle.describe()).runId;
    await handle.terminate('stopped by an operator');
    release();
    assert.equal((await get(jobId)).status, 'active', 'nothing recorded the terminated run');

    const sweep = strandedSweep(services, 2);
    assert.equal(await sweep.failStranded(), 1);
    const failed = await get(jobId);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'run_terminated');
    assert.match(failed.error?.message ?? '', /terminated in Temporal/);
    const failures = async () => (await services.events.after(jobId, 0)).filter((e) => e.type === 'job.failed');
    assert.deepEqual((await failures()).map((e) => e.data.error), [failed.error], 'one job.failed event with the reason');
    assert.equal(await sweep.failStranded(), 0, 'a second sweep finds nothing to do');
    assert.equal((await failures()).length, 1);

    const sent = await call<JobView>(`${base}/v2/agent/docs/job/${jobId}/message`, 'POST', adminKey, { prompt: 'Try once more' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.status, 'active');
    assert.equal(sent.body.error, undefined, 'the new run clears the old error');
    const done = await pollJob(base, adminKey, 'docs', jobId, (j) => j.status !== 'active', 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.notEqual((await handle.describe()).runId, stoppedRunId, 'a new run did the follow-up');
    assert.match((await repo.readFile(`quire/${jobId}`, 'page-1.mdx')) ?? '', /Install the gadget 1/);
  });

  it('a job whose workflow never started (its record written, the start failed, nothing removed it) is failed with run_never_started; a follow-up starts its run', async () => {
    const model = await startFakeModel(() => ({ toolCalls: [{ name: 'finish', arguments: { title: 'Nothing to change', summary: 'Checked.' } }] }));
    const repo = await createDocsRepo({ pages: 1, withNav: true });
    const services = await testServices({
      taskQueue: `never-started-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' },
    });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;
    // What a create leaves when its start fails and its clean-up fails too: the record and its message, no workflow.
    const job = newJobRecord({ projectId: 'docs', repository: repo.bareDir, ref: repo.branch, model: 'test-model' });
    await services.jobs.create(job, [{ id: `first:${job.id}`, prompt: 'Say gadget' }]);
    const sweep = (afterMinutes: number) => strandedSweep(services, afterMinutes);
    assert.equal(await sweep(0).failStranded(), 0, 'a job younger than the bound is left alone: its start may still be on its way');
    assert.equal(await sweep(2).failStranded(), 1);
    const failed = (await call<JobView>(`${base}/v2/agent/docs/job/${job.id}`, 'GET', adminKey)).body;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'run_never_started');
    assert.equal((await services.events.after(job.id, 0)).filter((e) => e.type === 'job.failed').length, 1);
    assert.equal(await sweep(2).failStranded(), 0);

    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const sent = await call<JobView>(`${base}/v2/agent/docs/job/${job.id}/message`, 'POST', adminKey, { prompt: 'Try once more' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.status, 'active');
    const done = await pollJob(base, adminKey, 'docs', job.id, (j) => j.status !== 'active', 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
  });
});
