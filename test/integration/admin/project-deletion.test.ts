/**
 * Deleting a project (alone, or with its organisation) stops its running jobs through their
 * workflows and deletes every row it owns with its record. The real API over HTTP, a real worker,
 * the Temporal dev server, a real git repository and the scripted model, which holds the job's turn.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { createActivities } from '../../../activities/index.js';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { createAutomation } from '../../../core/automations/index.js';
import { AGENT_JOB_WORKFLOW, agentJobWorkflowId } from '../../../core/contracts/agent-job.js';
import { PROJECT_ID } from '../../../core/contracts/search-attributes.js';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../../../core/contracts/webhook-delivery.js';
import { deleteProjectAndJobs } from '../../../core/deletion/index.js';
import { NotFoundError, UnavailableError } from '../../../core/errors.js';
import type { Queries } from '../../../core/db/index.js';
import { PullStore } from '../../../core/forge/index.js';
import { createJob, jobRunOptions, jobSettings, newJobRecord, runInput, sendJobMessage, type JobRecord, type JobStore, type JobView } from '../../../core/jobs/index.js';
import { newWebhook } from '../../../core/webhooks/index.js';
import { conforms } from '../../support/openapi-conforms.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo } from '../../support/docs-repo.js';
import { freePort } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, tempDir, testConfig, testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { filterLiteral } from '../../../core/temporal/list-filter.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { leftInTemporal, leftListedBy, runsListedBy } from '../../support/workflow-runs.js';
import { call } from '../agent-jobs/agent-api.js';

const OPERATOR_TOKEN = 'operator-test-token-0123456789';
const TABLES = ['jobs', 'job_messages', 'job_events', 'webhooks', 'webhook_deliveries', 'automations', 'pulls', 'gap_jobs'] as const;
type Rows = Record<(typeof TABLES)[number], number>;

/** The rows each table holds of the project. */
async function rowsOf(queries: Queries, projectId: string): Promise<Rows> {
  const rows = {} as Rows;
  for (const table of TABLES) {
    const found = await queries.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    rows[table] = Number(found.n);
  }
  return rows;
}

const NONE: Rows = { jobs: 0, job_messages: 0, job_events: 0, webhooks: 0, webhook_deliveries: 0, automations: 0, pulls: 0, gap_jobs: 0 };

/**
 * A model whose first call of each turn blocks until `release` (what it answers then goes nowhere):
 * `running` resolves once a turn is in it.
 */
async function blockingModel() {
  let turnRunning!: () => void;
  const running = new Promise<void>((resolve) => (turnRunning = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const model = await startFakeModel(async () => {
    turnRunning();
    await released;
    return { text: 'too late' };
  });
  return { model, running, release };
}

/** Gives the project one of everything it can own beside its running job: a webhook and a delivery, an automation, a pull request, a gap's link to its job, a finished job. */
async function furnish(services: ApiServices, projectId: string, runningJob: string): Promise<void> {
  // Wants only completions: the archive the delete makes sends it nothing.
  const { hook } = newWebhook(projectId, 'https://hooks.example.com/quire', ['job.completed']);
  await services.webhooks.put(hook);
  await services.webhooks.recordDelivery({
    deliveryId: `${hook.id}.${runningJob}.1`, projectId, webhookId: hook.id, url: hook.url, event: 'job.completed', jobId: runningJob, seq: 1,
    status: 'delivered', statusCode: 200, attempts: 1, lastError: null, updatedAt: new Date().toISOString(),
  });
  await createAutomation(services, projectId, { prompt: 'Check the links', cron: '@yearly', paused: true });
  await new PullStore(services.database).openOnce({ projectId, jobId: runningJob, branch: `quire/${runningJob}`, base: 'main', title: 'Say gadget', body: 'Said.', draft: false });
  await services.analyticsStore.putGapJob({ domainId: 'site', gapId: 'gap_0123456789abcdef', projectId, jobId: runningJob, at: Date.now() });
  const finished: JobRecord = { ...newJobRecord({ projectId, repository: '/srv/docs.git', ref: 'main', model: 'test-model' }), status: 'completed' };
  await services.jobs.create(finished, [{ id: `first:${finished.id}`, prompt: 'Done long ago' }]);
}

/**
 * Starts a worker whose job workflows' records are also kept in memory: the status each job was
 * last recorded with, by its workflow, which the delete then removes from Temporal with its history.
 */
async function startRecordingWorker(services: ApiServices): Promise<Map<string, string>> {
  const recorded = new Map<string, string>();
  const events = { ...services.events, record: async (job: JobRecord, news: Parameters<ApiServices['events']['record']>[1]) => (recorded.set(job.id, job.status), services.events.record(job, news)) };
  await startWorker(services, { taskQueue: services.config.temporal.taskQueue, activities: createActivities({ ...services, events }) });
  return recorded;
}

/** A job of the project whose turn is in the model call when this returns. */
async function runningJob(base: string, adminKey: string, projectId: string, running: Promise<void>): Promise<string> {
  const created = await call<JobView>(`${base}/v2/agent/${projectId}/job`, 'POST', adminKey, { prompt: 'Rewrite everything slowly' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await running;
  return created.body.id;
}

describe('deleting a project stops its jobs and deletes what it owns (real worker, Temporal)', function () {
  this.timeout(180_000);
  let repo: DocsRepo;

  before(async () => {
    repo = await createDocsRepo({ pages: 2, withNav: true });
  });

  const project = (id: string, orgId: string) => ({ id, orgId, repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local' as const, allowedModels: [] });
  const modelEnv = (baseUrl: string) => ({ QUIRE_MODEL_BASE_URL: baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', QUIRE_AGENT_HEARTBEAT_SECONDS: '4' });

  it('DELETE /v2/admin/projects/{id} archives its running job through its workflow, then deletes its rows with its record; another project keeps its own', async () => {
    const { model, running, release } = await blockingModel();
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env: modelEnv(model.baseUrl) });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject(project('docs', 'acme'));
    await services.tenants.putProject(project('kept', 'acme'));
    const recorded = await startRecordingWorker(services);
    const base = (await serve(createApp(services))).url;

    const jobId = await runningJob(base, adminKey, 'docs', running);
    await furnish(services, 'docs', jobId);
    await furnish(services, 'kept', `job_${'k'.repeat(20)}`);
    const before = await rowsOf(services.database.queries, 'docs');
    for (const table of TABLES) assert.ok(before[table] > 0, `the project has ${table} rows before its delete`);
    const kept = await rowsOf(services.database.queries, 'kept');

    // How the job's run closes: by itself once archived, or terminated by a delete that came too soon.
    const closed = services.temporal.workflow.getHandle(agentJobWorkflowId(jobId)).result().then(
      () => 'completed',
      (err: unknown) => (err instanceof WorkflowFailedError ? (err.cause?.name ?? err.message) : String(err)),
    );
    const res = await call(`${base}/v2/admin/projects/docs`, 'DELETE', adminKey);
    release();
    assert.equal(res.status, 204, JSON.stringify(res.body));
    // The job ended through its own workflow: archived, by the archive the delete sent.
    assert.equal(recorded.get(jobId), 'archived');
    assert.equal(await closed, 'completed', 'its run closed by itself before its delete');
    // Then its workflow went from Temporal, every run: its history and its visibility record.
    assert.deepEqual(await leftInTemporal(services.temporal, [agentJobWorkflowId(jobId)]), { described: [], listed: [] });
    assert.deepEqual(await rowsOf(services.database.queries, 'docs'), NONE);
    assert.deepEqual(await rowsOf(services.database.queries, 'kept'), kept, "another project's rows stay");
    assert.equal((await call(`${base}/v2/agent/docs/job/${jobId}`, 'GET', adminKey)).status, 404);

    // Created again by its organisation, the project starts empty.
    await services.tenants.putProject(project('docs', 'acme'));
    const listed = await call<{ jobs: unknown[] }>(`${base}/v2/agent/docs/jobs`, 'GET', adminKey);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.jobs, []);
  });

  it("its webhooks' delivery runs and its automations' firings are deleted from Temporal with it, every run", async () => {
    const model = await startFakeModel(() => ({ text: 'Done.' }));
    const env = { ...modelEnv(model.baseUrl), QUIRE_ALLOW_PRIVATE_TARGETS: 'true' };
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env });
    await seedOrg(services);
    const projectId = `hooked-${randomUUID().slice(0, 8)}`;
    await services.tenants.putProject(project(projectId, 'acme'));
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    // A receiver that takes every delivery.
    let delivered = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => (delivered++, res.writeHead(204).end()));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    onSuiteEnd(() => new Promise<void>((resolve) => (receiver.closeAllConnections(), receiver.close(() => resolve()))));
    const address = receiver.address();
    assert.ok(address && typeof address === 'object');
    const { hook } = newWebhook(projectId, `http://127.0.0.1:${address.port}/hooks`, []);
    await services.webhooks.put(hook);

    // Its schedule fires once now: the firing's run starts a job, whose events go to the webhook.
    const automation = await createAutomation(services, projectId, { prompt: 'Check the links', cron: '@yearly' });
    await services.temporal.schedule.getHandle(automation.scheduleId).trigger();
    const own = `${PROJECT_ID.name} = ${filterLiteral(projectId)} AND WorkflowType IN ('automationRunWorkflow', 'webhookDeliveryWorkflow')`;
    for (let look = 0; look < 600 && (delivered === 0 || (await runsListedBy(services.temporal, own)).length < 2); look++) await sleep(100);
    assert.ok(delivered > 0, 'the webhook had deliveries');
    const listed = await runsListedBy(services.temporal, own);
    assert.deepEqual(new Set(listed.map((run) => run.workflowId.split('-')[0])), new Set(['quire', 'webhook']), 'a firing and a delivery run are listed');

    await deleteProjectAndJobs(services, 'acme', projectId);
    assert.deepEqual(await leftListedBy(services.temporal, own), [], 'no firing or delivery run of the project is left');
    assert.deepEqual(await leftInTemporal(services.temporal, [webhookDeliveryWorkflowId(projectId, hook.id)]), { described: [], listed: [] });
    assert.deepEqual(await rowsOf(services.database.queries, projectId), NONE);
  });

  it("a job's run still open when the delete comes is let close by itself before its delete (Completed, not Terminated)", async () => {
    // No worker yet: the run stays open until the delete has listed the jobs, then closes by itself.
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env: { QUIRE_MODEL: 'test-model' } });
    await seedOrg(services);
    await services.tenants.putProject(project('closing', 'acme'));
    const job: JobRecord = { ...newJobRecord({ projectId: 'closing', repository: repo.bareDir, ref: repo.branch, model: 'test-model' }), status: 'completed' };
    await services.jobs.create(job, [{ id: `first:${job.id}`, prompt: 'Done already' }]);
    const options = jobRunOptions(job, runInput(job, jobSettings(services.config, false)), { summary: 'closing', status: 'completed' }, services.config.temporal.taskQueue);
    const run = await services.temporal.workflow.start(AGENT_JOB_WORKFLOW, options);
    const closed = run.result().then(
      () => 'completed',
      (err: unknown) => (err instanceof WorkflowFailedError ? (err.cause?.name ?? err.message) : String(err)),
    );
    let listings = 0;
    const jobs: JobStore = {
      ...services.jobs,
      list: async (projectId, query) => {
        if (listings++ === 0) await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
        return services.jobs.list(projectId, query);
      },
    };
    await deleteProjectAndJobs({ ...services, jobs }, 'acme', 'closing');
    assert.equal(await closed, 'completed', 'its run closed by itself, then went');
    assert.deepEqual(await leftInTemporal(services.temporal, [agentJobWorkflowId(job.id)]), { described: [], listed: [] });
    assert.deepEqual(await rowsOf(services.database.queries, 'closing'), NONE);
  });

  it('with Temporal down: a project or organisation delete answers 503 with Retry-After and deletes nothing of the project; a repeat stops its job and finishes it', async () => {
    const { model, running, release } = await blockingModel();
    const dataDir = await tempDir();
    const env = { ...modelEnv(model.baseUrl), QUIRE_DATA_DIR: dataDir, QUIRE_OPERATOR_TOKEN: OPERATOR_TOKEN, QUIRE_TENANT_CACHE_TTL_MS: '0' };
    const up = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env });
    const { adminKey } = await seedOrg(up, 'leaving');
    await up.tenants.putProject(project('leaving-docs', 'leaving'));
    const recorded = await startRecordingWorker(up);
    const upUrl = (await serve(createApp(up))).url;
    const jobId = await runningJob(upUrl, adminKey, 'leaving-docs', running);
    await furnish(up, 'leaving-docs', jobId);
    const before = await rowsOf(up.database.queries, 'leaving-docs');

    // Another API process on the same database, whose Temporal is out of reach (nothing listens on the port).
    const down = await servicesOn(await testConfig({ ...env, TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` }));
    const downUrl = (await serve(createApp(down))).url;
    const alone = await fetch(`${downUrl}/v2/admin/projects/leaving-docs`, { method: 'DELETE', headers: { Authorization: `Bearer ${adminKey}` } });
    assert.equal(alone.status, 503);
    assert.ok(Number(alone.headers.get('retry-after')) >= 1);
    await conforms('/v2/admin/projects/{projectId}', 'delete', alone.clone());
    assert.equal(((await alone.json()) as { code: string }).code, 'unavailable');
    assert.deepEqual(await rowsOf(up.database.queries, 'leaving-docs'), before, 'nothing of the project is deleted');

    const org = await call<{ code: string; error: string }>(`${downUrl}/v2/operator/orgs/leaving`, 'DELETE', OPERATOR_TOKEN);
    assert.equal(org.status, 503, JSON.stringify(org.body));
    assert.ok(Number(org.headers.get('retry-after')) >= 1);
    assert.match(org.body.error, /but project leaving-docs could not be deleted yet; delete it again to finish/);
    assert.ok(await up.tenants.getProject('leaving-docs'));
    assert.deepEqual(await rowsOf(up.database.queries, 'leaving-docs'), before);
    assert.equal((await up.jobs.get('leaving-docs', jobId))?.status, 'active', 'the job still runs');

    const again = await call<{ projects: string[] }>(`${upUrl}/v2/operator/orgs/leaving`, 'DELETE', OPERATOR_TOKEN);
    release();
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body.projects, ['leaving-docs']);
    assert.equal(recorded.get(jobId), 'archived');
    assert.deepEqual(await leftInTemporal(up.temporal, [agentJobWorkflowId(jobId)]), { described: [], listed: [] }, 'the repeat deleted its workflow from Temporal');
    assert.deepEqual(await rowsOf(up.database.queries, 'leaving-docs'), NONE);
  });

  it('a job started while the delete runs is refused (409), one started through a tenant cache that still holds the deleted project is refused (404) and its run stopped; the webhooks\' delivery workflows go', async () => {
    const model = await startFakeModel(() => ({ text: 'Done.' }));
    const dataDir = await tempDir();
    const env = { ...modelEnv(model.baseUrl), QUIRE_DATA_DIR: dataDir };
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject(project('docs', 'acme'));
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    // Another API process on the same database, whose tenant cache holds the project for a minute.
    const other = await servicesOn(await testConfig({ ...env, QUIRE_TENANT_CACHE_TTL_MS: '60000', TEMPORAL_ADDRESS: (await temporalEnv()).address, TEMPORAL_TASK_QUEUE: services.config.temporal.taskQueue }));
    const otherUrl = (await serve(createApp(other))).url;
    assert.equal((await call(`${otherUrl}/v2/agent/docs/jobs`, 'GET', adminKey)).status, 200, 'its cache holds the project');

    // The webhook's delivery workflow, open and waiting for events, as a job event leaves it.
    const { hook } = newWebhook('docs', 'https://hooks.example.com/quire', []);
    await services.webhooks.put(hook);
    const input: WebhookDeliveryInput = { projectId: 'docs', webhookId: hook.id, settings: services.config.webhooks, queue: [], handled: [] };
    const delivery = await services.temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, { workflowId: webhookDeliveryWorkflowId('docs', hook.id), taskQueue: services.config.temporal.taskQueue, args: [input] });

    // A create that reaches the other process after the delete began: after the delete listed the active jobs.
    let during: Awaited<ReturnType<typeof call>> | undefined;
    const jobs: JobStore = {
      ...services.jobs,
      list: async (projectId, query) => {
        during ??= await call(`${otherUrl}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Start while it is deleted' });
        return services.jobs.list(projectId, query);
      },
    };
    await deleteProjectAndJobs({ ...services, jobs }, 'acme', 'docs');
    assert.equal(during?.status, 409, JSON.stringify(during?.body));
    assert.match(String((during?.body as { error?: string }).error), /project 'docs' is being deleted/);
    assert.deepEqual(await rowsOf(services.database.queries, 'docs'), NONE);
    assert.deepEqual(await leftInTemporal(services.temporal, [delivery.workflowId]), { described: [], listed: [] }, "the webhook's delivery workflow went with its project");

    // The other process still reads the project from its cache; its create finds it deleted.
    assert.ok(await other.tenants.getProject('docs'));
    const made: string[] = [];
    const store: JobStore = { ...other.jobs, create: (record, messages) => (made.push(record.id), other.jobs.create(record, messages)) };
    const request = { projectId: 'docs', repository: repo.bareDir, ref: repo.branch, model: 'test-model', prompt: 'Start after it is deleted', draft: false };
    await assert.rejects(createJob({ temporal: other.temporal, store, config: other.config }, request), NotFoundError);
    assert.equal(made.length, 1);
    assert.equal((await other.temporal.workflow.getHandle(agentJobWorkflowId(made[0]!)).describe()).status.name, 'TERMINATED', 'its run is stopped');
    assert.deepEqual(await rowsOf(services.database.queries, 'docs'), NONE);
  });

  it('a follow-up to a job of a project being deleted is refused (409) as a create is, keeping nothing and starting no run; once the project is gone, 404', async () => {
    // A task queue no worker polls: a follow-up let through would start the job's next run there.
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env: { QUIRE_MODEL: 'test-model' } });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject(project('docs', 'acme'));
    const base = (await serve(createApp(services))).url;
    const finished: JobRecord = { ...newJobRecord({ projectId: 'docs', repository: repo.bareDir, ref: repo.branch, model: 'test-model' }), status: 'completed' };
    await services.jobs.create(finished, [{ id: `first:${finished.id}`, prompt: 'Done already' }]);
    const followUp = () =>
      fetch(`${base}/v2/agent/docs/job/${finished.id}/message`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${adminKey}`, 'content-type': 'application/json', 'Idempotency-Key': 'follow-up-0001' },
        body: JSON.stringify({ prompt: 'One more thing' }),
      });

    assert.equal(await services.tenants.beginProjectDeletion('docs'), true);
    const refused = await followUp();
    assert.equal(refused.status, 409);
    await conforms('/v2/agent/{projectId}/job/{id}/message', 'post', refused.clone());
    assert.deepEqual(await refused.json(), { code: 'conflict', error: "project 'docs' is being deleted: no message can be sent to its jobs" });
    assert.deepEqual(await services.jobs.getMessages('docs', finished.id, ['key:follow-up-0001']), [], 'nothing of the message is kept');
    assert.equal((await services.jobs.get('docs', finished.id))?.status, 'completed');
    await assert.rejects(services.temporal.workflow.getHandle(agentJobWorkflowId(finished.id)).describe(), WorkflowNotFoundError, 'no run was started');

    await deleteProjectAndJobs(services, 'acme', 'docs');
    const gone = await followUp();
    assert.equal(gone.status, 404);
    assert.equal(((await gone.json()) as { code: string }).code, 'not_found');
  });

  it('a finished job that a message makes active again between the listing and the transaction is archived before the rows go', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let resumed!: () => void;
    const running = new Promise<void>((resolve) => (resumed = resolve));
    // The first turn answers at once; the turn the follow-up starts is held until released.
    const model = await startFakeModel(async (req) => {
      if (!JSON.stringify(req.body.messages).includes('Now slowly')) return { text: 'Done.' };
      resumed();
      await released;
      return { text: 'too late' };
    });
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}`, env: modelEnv(model.baseUrl) });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject(project('docs', 'acme'));
    const recorded = await startRecordingWorker(services);
    const base = (await serve(createApp(services))).url;
    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Say gadget' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const jobId = created.body.id;
    await services.temporal.workflow.getHandle(agentJobWorkflowId(jobId)).result();
    assert.equal((await services.jobs.get('docs', jobId))?.status, 'completed');

    // A follow-up whose message was kept before the delete began (a follow-up after that is refused),
    // and whose update reaches Temporal only after the delete's first listing found no active job.
    const message = { id: randomUUID(), prompt: 'Now slowly' };
    await services.jobs.putMessage('docs', jobId, message);
    const finished = await services.jobs.get('docs', jobId);
    assert.ok(finished);
    let listings = 0;
    const jobs: JobStore = {
      ...services.jobs,
      list: async (projectId, query) => {
        const page = await services.jobs.list(projectId, query);
        if (listings++ === 0) {
          assert.equal((await sendJobMessage(services, finished, message)).status, 'active', "the follow-up starts the finished job's next run");
          await running;
        }
        return page;
      },
    };
    await deleteProjectAndJobs({ ...services, jobs }, 'acme', 'docs');
    release();
    assert.equal(recorded.get(jobId), 'archived', 'its run was archived before the rows went');
    // Every run of its workflow went from Temporal: its first turn's, the follow-up's and the archive's.
    assert.deepEqual(await leftInTemporal(services.temporal, [agentJobWorkflowId(jobId)]), { described: [], listed: [] });
    assert.deepEqual(await rowsOf(services.database.queries, 'docs'), NONE);
    assert.equal(listings, 2, 'listed again after the transaction found the job active');
  });

  it('a job that is active again after every listing leaves the project for a repeat: 503 with Retry-After after three tries, nothing deleted; the repeat finishes it', async () => {
    const services = await testServices({ taskQueue: `project-deletion-${randomUUID()}` });
    await seedOrg(services);
    await services.tenants.putProject(project('docs', 'acme'));
    const job = newJobRecord({ projectId: 'docs', repository: repo.bareDir, ref: repo.branch, model: 'test-model' });
    await services.jobs.create(job, [{ id: `first:${job.id}`, prompt: 'Keep going' }]);
    // Each listing misses the job, as one that a follow-up makes active just after it would be missed.
    let listings = 0;
    const jobs: JobStore = { ...services.jobs, list: async () => (listings++, { jobs: [], nextCursor: null }) };
    await assert.rejects(deleteProjectAndJobs({ ...services, jobs }, 'acme', 'docs'), (err: unknown) => err instanceof UnavailableError && (err.retryAfterSeconds ?? 0) >= 1);
    assert.equal(listings, 3);
    assert.ok(await services.tenants.getProject('docs'), 'the project stays');
    assert.equal((await rowsOf(services.database.queries, 'docs')).jobs, 1, 'its job stays');

    const recorded = await startRecordingWorker(services);
    await deleteProjectAndJobs(services, 'acme', 'docs');
    assert.equal(recorded.get(job.id), 'archived');
    assert.deepEqual(await rowsOf(services.database.queries, 'docs'), NONE);
  });
});
