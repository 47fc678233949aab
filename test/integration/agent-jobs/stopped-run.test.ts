/**
 * An operator terminates a job's workflow in the middle of a turn (as from the Temporal UI or
 * `temporal workflow terminate`), or a run times out: the run can no longer record the job, so the
 * job-reconcile schedule's workflow (worker side, the job workflow's own record path) fails it
 * with `run_terminated` or `run_timed_out`; a follow-up afterwards starts a new run that completes.
 * Jobs whose workflow still runs, or was restarted by a follow-up, are left alone. The real API over
 * HTTP, a real worker, the Temporal dev server, a real git repository and the scripted model.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import { createReconcileActivities } from '../../../activities/jobs/index.js';
import { agentJobWorkflowId, AGENT_JOB_WORKFLOW, messageRef, RECONCILE_JOBS_WORKFLOW, reconcileJobsScheduleId, type AgentJobWorkflow, type ReconcileJobsWorkflow } from '../../../core/contracts/index.js';
import { ensureReconcileJobsSchedule, jobRunOptions, jobSettings, newJobRecord, runInput, stoppedRunsQuery, type JobView } from '../../../core/jobs/index.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { openSse, readToEnd } from '../../support/sse-client.js';
import { startWorker } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { call, pollJob } from './agent-api.js';

type Services = Awaited<ReturnType<typeof testServices>>;

/** Resolves once Temporal's visibility lists `count` runs of the task queue stopped from outside: what the reconcile reads. */
async function listedStopped(services: Services, count: number, since: Date): Promise<void> {
  const query = stoppedRunsQuery(services.config.temporal.taskQueue, since);
  const until = Date.now() + 30_000;
  while ((await services.temporal.workflow.count(query)).count < count) {
    if (Date.now() > until) throw new Error(`visibility did not list ${count} stopped runs: ${query}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One reconcile run started directly, as the schedule starts it; answers its result. */
function reconcileOnce(services: Services) {
  return services.temporal.workflow.execute<ReconcileJobsWorkflow>(RECONCILE_JOBS_WORKFLOW, { taskQueue: services.config.temporal.taskQueue, workflowId: `reconcile-${randomUUID()}` });
}

/** A gate a scripted model reply waits on. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('a job whose workflow an operator terminates mid-turn', function () {
  this.timeout(180_000);

  it("is failed by the reconcile schedule's workflow with run_terminated and the reason; running jobs and a job a follow-up restarted are left alone; a follow-up then starts a new run", async () => {
    const alphaRunning = gate();
    const bravoRunning = gate();
    const charlieRunning = gate();
    const charlieAgainRunning = gate();
    // The stopped runs' turns answer once their runs are gone (what they answer goes nowhere); the others once the test is done with the reconcile.
    const stopped = gate();
    const release = gate();
    let retries = 0;
    const model = await startFakeModel(async (req) => {
      const body = JSON.stringify(req.body);
      // Told apart by their prompts, latest first: a follow-up's request carries the earlier prompts too.
      if (body.includes('Try once more')) {
        return retries++ === 0
          ? { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }] }
          : { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget', summary: 'Said gadget.' } }] };
      }
      if (body.includes('Charlie again')) charlieAgainRunning.open();
      else if (body.includes('Bravo')) bravoRunning.open();
      else {
        (body.includes('Charlie') ? charlieRunning : alphaRunning).open();
        await stopped.opened;
        return { text: 'too late' };
      }
      await release.opened;
      return { toolCalls: [{ name: 'finish', arguments: { title: 'Nothing to change', summary: 'Checked.' } }] };
    });
    const repo = await createDocsRepo({ pages: 2, withNav: true });
    const services = await testServices({
      taskQueue: `stopped-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', QUIRE_AGENT_HEARTBEAT_SECONDS: '4' },
    });
    const { taskQueue } = services.config.temporal;
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await startWorker(services, { taskQueue });
    const base = (await serve(createApp(services))).url;
    const get = async (id: string) => (await call<JobView>(`${base}/v2/agent/docs/job/${id}`, 'GET', adminKey)).body;
    const create = async (prompt: string) => {
      const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    };
    const failures = async (jobId: string) => (await services.events.after(jobId, 0)).filter((e) => e.type === 'job.failed');
    const since = new Date(Date.now() - 1000);

    // Alpha is terminated mid-turn; Bravo's turn keeps running; Charlie is terminated and then restarted by a follow-up.
    const alpha = await create('Alpha: say gadget on page 1');
    const bravo = await create('Bravo: look at page 2');
    const charlie = await create('Charlie: look at page 1');
    await Promise.all([alphaRunning.opened, bravoRunning.opened, charlieRunning.opened]);
    const alphaHandle = services.temporal.workflow.getHandle(agentJobWorkflowId(alpha));
    const stoppedRunId = (await alphaHandle.describe()).runId;
    await alphaHandle.terminate('stopped by an operator');
    await services.temporal.workflow.getHandle(agentJobWorkflowId(charlie)).terminate('stopped too');
    stopped.open();
    assert.equal((await get(alpha)).status, 'active', 'nothing recorded the terminated run');
    const followUp = await call<JobView>(`${base}/v2/agent/docs/job/${charlie}/message`, 'POST', adminKey, { prompt: 'Charlie again: look at page 2' });
    assert.equal(followUp.status, 200, JSON.stringify(followUp.body));
    await charlieAgainRunning.opened;
    await listedStopped(services, 2, since);

    // The reconcile as a worker makes it at start, fired now rather than in a minute.
    const events = await openSse(`${base}/v2/agent/docs/job/${alpha}/events`, { authorization: `Bearer ${adminKey}` });
    await ensureReconcileJobsSchedule(services.temporal, taskQueue);
    const schedule = services.temporal.schedule.getHandle(reconcileJobsScheduleId(taskQueue));
    onSuiteEnd(() => schedule.delete().catch(() => undefined));
    // A second worker's start finds it there and leaves it as it is.
    await ensureReconcileJobsSchedule(services.temporal, taskQueue);
    assert.equal((await schedule.describe()).action.type, 'startWorkflow');
    await schedule.trigger();
    const failed = await pollJob(base, adminKey, 'docs', alpha, (j) => j.status !== 'active', 60_000);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'run_terminated');
    assert.match(failed.error?.message ?? '', /terminated in Temporal while the job was active \(the reason given: "stopped by an operator"\); send a message to start a new run/);
    assert.deepEqual((await failures(alpha)).map((e) => e.data.error), [failed.error], 'one job.failed event with the reason');
    const frames = await readToEnd(events);
    assert.equal(frames.at(-1)?.event, 'job.failed', `the stream ends with the terminal event: ${frames.map((f) => f.event).join(', ')}`);
    assert.deepEqual(JSON.parse(frames.at(-1)!.data).data.error, failed.error);

    // Twice, and with a clock far enough on that the database's list describes every active job: nothing more.
    const again = await reconcileOnce(services);
    assert.equal(again.failed, 0, JSON.stringify(again));
    const later = await createReconcileActivities(services, { now: () => Date.now() + 10 * 60_000 }).reconcileStoppedJobs();
    assert.deepEqual([later.looked, later.failed], [2, 0], `Bravo and Charlie were described and left alone: ${JSON.stringify(later)}`);
    assert.equal((await failures(alpha)).length, 1);
    for (const open of [bravo, charlie]) {
      assert.equal((await get(open)).status, 'active');
      assert.deepEqual(await failures(open), []);
      assert.equal((await services.temporal.workflow.getHandle(agentJobWorkflowId(open)).describe()).status.name, 'RUNNING');
    }

    // A follow-up works as on any failed job: a new run, the old error gone, the branch as the stopped run left it.
    const sent = await call<JobView>(`${base}/v2/agent/docs/job/${alpha}/message`, 'POST', adminKey, { prompt: 'Try once more' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.status, 'active');
    assert.equal(sent.body.error, undefined, 'the new run clears the old error');
    const done = await pollJob(base, adminKey, 'docs', alpha, (j) => j.status !== 'active', 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.notEqual((await alphaHandle.describe()).runId, stoppedRunId, 'a new run did the follow-up');
    assert.match((await repo.readFile(`quire/${alpha}`, 'page-1.mdx')) ?? '', /Install the gadget 1/);

    // The jobs left alone end as their own runs record them.
    release.open();
    for (const open of [bravo, charlie]) assert.equal((await pollJob(base, adminKey, 'docs', open, (j) => j.status !== 'active', 120_000)).status, 'completed');
    assert.deepEqual([...(await failures(bravo)), ...(await failures(charlie))], []);
    await schedule.delete();
  });

  it('a run that timed out fails its job with run_timed_out when the reconcile workflow runs', async () => {
    const running = gate();
    const model = await startFakeModel(async () => {
      running.open();
      // Longer than the run may live: the run times out during the turn.
      await new Promise((r) => setTimeout(r, 8_000));
      return { text: 'too late' };
    });
    const repo = await createDocsRepo({ pages: 1, withNav: true });
    const services = await testServices({
      taskQueue: `timed-out-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' },
    });
    await services.tenants.putProject({ id: 'docs', orgId: (await seedOrg(services)).orgId, repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    // A run started with an execution timeout (as an operator's own start, or a cluster's default, may give it).
    const job = newJobRecord({ projectId: 'docs', repository: repo.bareDir, ref: repo.branch, model: 'test-model' });
    const first = { id: `first:${job.id}`, prompt: 'Say gadget' };
    await services.jobs.create(job, [first]);
    const since = new Date(Date.now() - 1000);
    const input = runInput(job, jobSettings(services.config, false), [messageRef(first)]);
    await services.temporal.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, {
      ...jobRunOptions(job, input, { summary: 'Say gadget', status: 'active' }, services.config.temporal.taskQueue),
      workflowExecutionTimeout: '3 seconds',
    });
    await running.opened;
    await listedStopped(services, 1, since);
    assert.equal((await services.jobs.get('docs', job.id))?.status, 'active');

    const result = await reconcileOnce(services);
    assert.deepEqual(result.jobs, [{ jobId: job.id, code: 'run_timed_out' }]);
    const failed = await services.jobs.get('docs', job.id);
    assert.deepEqual([failed?.status, failed?.error?.code], ['failed', 'run_timed_out']);
    assert.match(failed?.error?.message ?? '', /timed out in Temporal/);
    assert.deepEqual((await reconcileOnce(services)).failed, 0);
    assert.equal((await services.events.after(job.id, 0)).filter((e) => e.type === 'job.failed').length, 1);
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
    // The reconcile's activity called directly, its clock `minutes` ahead instead of waiting.
    const reconcile = (minutes: number) => createReconcileActivities(services, { now: () => Date.now() + minutes * 60_000 }).reconcileStoppedJobs();
    assert.equal((await reconcile(0)).failed, 0, 'a job younger than the bound is left alone: its start may still be on its way');
    assert.equal((await reconcile(2)).failed, 1);
    const failed = (await call<JobView>(`${base}/v2/agent/docs/job/${job.id}`, 'GET', adminKey)).body;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'run_never_started');
    assert.equal((await services.events.after(job.id, 0)).filter((e) => e.type === 'job.failed').length, 1);
    assert.equal((await reconcile(2)).failed, 0);

    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const sent = await call<JobView>(`${base}/v2/agent/docs/job/${job.id}/message`, 'POST', adminKey, { prompt: 'Try once more' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.status, 'active');
    const done = await pollJob(base, adminKey, 'docs', job.id, (j) => j.status !== 'active', 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
  });
});
