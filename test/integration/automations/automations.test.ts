/**
 * Automations end to end: the real API over HTTP, Temporal Schedules on the dev server, a real
 * worker with the real activities, real bare git repositories, and the scripted model standing in
 * for an OpenAI-compatible provider.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import { automationJobId, startAutomationJob, type AutomationView } from '../../../core/automations/index.js';
import { type JobView } from '../../../core/jobs/index.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo } from '../../support/docs-repo.js';
import { conforms } from '../../support/openapi-conforms.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { call, pollJob } from '../agent-jobs/agent-api.js';

/** Polls until `read` gives a value (not undefined/false), or fails with what it last saw. */
async function eventually<T>(what: string, read: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('automations on Temporal Schedules (real worker, git, Temporal)', function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let repo: DocsRepo;
  let services: Awaited<ReturnType<typeof testServices>>;
  let base: string;
  let admin: string;
  let assistant: string;
  let limitedAdmin: string;
  let otherAdmin: string;
  /** Holds every model reply while closed: a job stays `active` exactly as long as the test wants. */
  let gate: Promise<void> = Promise.resolve();
  const scheduleIds: string[] = [];
  const url = (path: string) => `${base}/v2/agent${path}`;

  before(async () => {
    model = await startFakeModel(async (req) => {
      await gate;
      // Each job: one edit on its own branch, then finish.
      if (req.body.messages.at(-1)?.role === 'tool') return { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'page-1: gadget' } }] };
      return { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }] };
    });
    repo = await createDocsRepo({ pages: 3, withNav: true });
    services = await testServices({
      taskQueue: `automations-${randomUUID()}`,
      env: {
        QUIRE_MODEL_BASE_URL: model.baseUrl,
        QUIRE_MODEL_API_KEY: 'sk-test-model',
        QUIRE_MODEL: 'test-model',
        QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS: '1',
      },
    });
    ({ adminKey: admin, assistantKey: assistant } = await seedOrg(services, 'acme'));
    otherAdmin = (await seedOrg(services, 'rival')).adminKey;
    await services.tenants.addOrg('limited', { agentCreatesPerHour: 1 });
    limitedAdmin = (await services.tenants.createKey('limited', 'admin')).secret;
    const project = { repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local' as const, allowedModels: [] };
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'manual', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'quiet', orgId: 'limited', ...project });
    await services.tenants.putProject({ id: 'theirs', orgId: 'rival', ...project });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    base = (await serve(createApp(services))).url;
  });

  after(async () => {
    // The dev server outlives this suite: leave no schedule firing into a queue nobody serves.
    for (const id of scheduleIds) await services.temporal.schedule.getHandle(id).delete().catch(() => undefined);
  });

  const add = async (project: string, body: Record<string, unknown>, key = admin) => {
    const reply = await call<AutomationView>(url(`/${project}/automations`), 'POST', key, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    scheduleIds.push(reply.body.scheduleId);
    return reply.body;
  };
  const jobsOf = async (project: string, key = admin) => (await call<{ jobs: JobView[] }>(url(`/${project}/jobs?limit=100`), 'GET', key)).body.jobs;
  const settled = (job: JobView) => job.status !== 'active';

  it('fires on a short interval: an ordinary job that completes with a pull request; pause stops the firings', async () => {
    const prompt = 'Say gadget on page 1\nSecond line that stays out of workflow history';
    const created = await add('docs', { interval: '1s', prompt, note: 'nightly tidy-up' });
    assert.equal(created.scheduleId, `quire-automation-docs-${created.id}`);
    assert.deepEqual([created.paused, created.note, created.interval, created.cron, created.lastRun], [false, 'nightly tidy-up', '1s', null, null]);
    assert.ok(created.nextRunTimes.length > 0, 'the schedule says when it fires next');

    // A real Temporal Schedule, readable in the Temporal UI, whose action carries only ids.
    const schedule = services.temporal.schedule.getHandle(created.scheduleId);
    const described = await schedule.describe();
    assert.equal(described.spec.intervals?.[0]?.every, 1000);
    assert.equal(described.action.workflowType, 'automationRunWorkflow');
    assert.deepEqual(described.action.args, [{ projectId: 'docs', automationId: created.id }]);
    assert.deepEqual(described.memo, { projectId: 'docs', automationId: created.id, prompt: 'Say gadget on page 1', model: '(project default)' });
    assert.equal(described.policies.overlap, 'SKIP');

    // It fires: an ordinary job appears in the project's list and completes like any other.
    const first = await eventually('a job started by the schedule', async () => (await jobsOf('docs')).at(-1));
    const done = await pollJob(base, admin, 'docs', first.id, settled, 60_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.branch, `quire/${first.id}`);
    assert.match(done.prLink ?? '', /\/pulls?\//);
    assert.match((await repo.readFile(done.branch, 'page-1.mdx')) ?? '', /Install the gadget 1/);
    // The whole prompt reached the model, through the job store.
    const [message] = await services.jobs.getMessages('docs', first.id, [`first:${first.id}`]);
    assert.equal(message?.prompt, prompt);
    assert.ok(model.requests.some((r) => JSON.stringify(r.body.messages).includes('Second line that stays out')));

    // The run workflow's history holds ids, not the prompt.
    const action = (await schedule.describe()).info.recentActions[0]?.action;
    assert.ok(action, 'the schedule lists its recent run');
    const history = await services.temporal.workflow.getHandle(action.workflow.workflowId, action.workflow.firstExecutionRunId).fetchHistory();
    assert.ok(!JSON.stringify(history).includes('Second line'), 'the prompt is not in the run’s history');

    const paused = await call<AutomationView>(url(`/docs/automations/${created.id}/pause`), 'POST', admin, { note: 'holiday' });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.deepEqual([paused.body.paused, paused.body.note], [true, 'holiday']);
    assert.equal((await schedule.describe()).state.paused, true);
    // A firing that raced the pause finishes (and its job settles) before counting.
    await eventually('no run in flight', async () => (await schedule.describe()).info.runningActions.length === 0);
    const afterPause = await eventually('every job settled', async () => {
      const jobs = await jobsOf('docs');
      return jobs.every(settled) && jobs;
    });
    const takenAtPause = (await schedule.describe()).info.numActionsTaken;
    const lastRun = (await call<AutomationView>(url(`/docs/automations/${created.id}`), 'GET', admin)).body.lastRun;
    assert.ok(lastRun?.jobId && afterPause.some((j) => j.id === lastRun.jobId), 'the automation names the job it started last');

    // A witness on the same interval, created after the pause, fires twice: time enough for the paused one to have fired.
    // Its project's hourly create is spent, so each of its firings is skipped and says why.
    const spent = await call<JobView>(url('/quiet/job'), 'POST', limitedAdmin, { prompt: 'Spend the hourly create' });
    assert.equal(spent.status, 201);
    const witness = await add('quiet', { interval: '1s', prompt: 'Witness' }, limitedAdmin);
    const witnessSchedule = services.temporal.schedule.getHandle(witness.scheduleId);
    await eventually('two firings of the witness', async () => (await witnessSchedule.describe()).info.numActionsTaken >= 2);
    await eventually('the witness’s runs finished', async () => (await witnessSchedule.describe()).info.runningActions.length === 0);
    const witnessed = (await call<AutomationView>(url(`/quiet/automations/${witness.id}`), 'GET', limitedAdmin)).body;
    assert.equal(witnessed.lastRun?.skipped?.code, 'rate_limited', JSON.stringify(witnessed.lastRun));
    assert.equal(witnessed.lastRun?.jobId, null);
    assert.deepEqual((await jobsOf('quiet', limitedAdmin)).map((j) => j.id), [spent.body.id], 'a firing over the limit starts no job');

    assert.equal((await schedule.describe()).info.numActionsTaken, takenAtPause, 'the paused schedule took no action');
    assert.deepEqual((await jobsOf('docs')).map((j) => j.id), afterPause.map((j) => j.id), 'no job started after the pause');

    const resumed = await call<AutomationView>(url(`/docs/automations/${created.id}/resume`), 'POST', admin);
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.paused, false);
    await call(url(`/docs/automations/${created.id}/pause`), 'POST', admin);
  });

  it('trigger answers 202 with the id of a job GET finds; a second trigger while it runs is refused (overlap)', async () => {
    const created = await add('manual', { cron: '0 9 * * MON', timezone: 'Europe/Berlin', prompt: 'Say gadget on page 1', asDraft: true });
    const spec = (await services.temporal.schedule.getHandle(created.scheduleId).describe()).spec;
    assert.deepEqual([spec.calendars?.[0]?.hour, spec.timezone], [[{ start: 9, end: 9, step: 1 }], 'Europe/Berlin']);
    let release = () => {};
    gate = new Promise((resolve) => (release = resolve));
    try {
      const triggered = await call<{ jobId: string; job: JobView }>(url(`/manual/automations/${created.id}/trigger`), 'POST', admin);
      assert.equal(triggered.status, 202, JSON.stringify(triggered.body));
      assert.ok(triggered.headers.get('RateLimit-Remaining'), 'the create allowance was spent');
      const got = await call<JobView>(url(`/manual/job/${triggered.body.jobId}`), 'GET', admin);
      assert.equal(got.status, 200);
      assert.deepEqual([got.body.id, got.body.status], [triggered.body.jobId, 'active']);

      const again = await call<{ code: string; error: string }>(url(`/manual/automations/${created.id}/trigger`), 'POST', admin);
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.match(again.body.error, new RegExp(`previous job ${triggered.body.jobId} is still running`));
      release();
      const done = await pollJob(base, admin, 'manual', triggered.body.jobId, settled, 60_000);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.match(done.prLink ?? '', /\/pulls?\//);

      // Three triggers at once (a double click, two API replicas): one job, the others answered with it or refused.
      const before = (await jobsOf('manual')).length;
      const racing = await Promise.all([1, 2, 3].map(() => call<{ jobId: string }>(url(`/manual/automations/${created.id}/trigger`), 'POST', admin)));
      const started = racing.filter((r) => r.status === 202);
      assert.ok(started.length >= 1 && racing.every((r) => r.status === 202 || r.status === 409), JSON.stringify(racing.map((r) => r.status)));
      assert.equal(new Set(started.map((r) => r.body.jobId)).size, 1, 'one job for all the triggers that started one');
      assert.equal((await jobsOf('manual')).length, before + 1);
      assert.notEqual(started[0]!.body.jobId, triggered.body.jobId);
      await pollJob(base, admin, 'manual', started[0]!.body.jobId, settled, 60_000);
    } finally {
      release();
    }
  });

  it('lists with next run times, answers as the OpenAPI document says, and delete removes the schedule', async () => {
    const raw = (method: string, path: string, body?: unknown) =>
      fetch(url(path), {
        method,
        headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const createdRes = await raw('POST', '/manual/automations', { cron: '@daily', prompt: 'Check links', model: 'test-model', paused: true });
    const created = (await createdRes.clone().json()) as AutomationView;
    scheduleIds.push(created.scheduleId);
    await conforms('/v2/agent/{projectId}/automations', 'post', createdRes);
    assert.deepEqual([created.paused, created.model, created.note], [true, 'test-model', null]);
    await conforms('/v2/agent/{projectId}/automations/{automationId}/resume', 'post', await raw('POST', `/manual/automations/${created.id}/resume`));
    await conforms('/v2/agent/{projectId}/automations/{automationId}', 'get', await raw('GET', `/manual/automations/${created.id}`));
    await conforms('/v2/agent/{projectId}/automations', 'get', await raw('GET', '/manual/automations'));
    await conforms('/v2/agent/{projectId}/automations', 'post', await raw('POST', '/manual/automations', { cron: 'often', prompt: 'x' }));
    const listed = await call<{ automations: AutomationView[] }>(url('/manual/automations'), 'GET', admin);
    assert.equal(listed.status, 200);
    const entry = listed.body.automations.find((a) => a.id === created.id);
    assert.ok(entry && entry.nextRunTimes.length > 0 && !Number.isNaN(Date.parse(entry.nextRunTimes[0] ?? '')), JSON.stringify(entry));
    assert.ok(listed.body.automations.some((a) => a.lastRun?.jobId), 'the triggered automation lists its last job');

    const deleted = await call(url(`/manual/automations/${created.id}`), 'DELETE', admin);
    assert.equal(deleted.status, 204);
    await assert.rejects(services.temporal.schedule.getHandle(created.scheduleId).describe(), ScheduleNotFoundError);
    assert.equal((await call(url(`/manual/automations/${created.id}`), 'GET', admin)).status, 404);
    assert.equal((await call(url(`/manual/automations/${created.id}`), 'DELETE', admin)).status, 404);
    const after = await call<{ automations: AutomationView[] }>(url('/manual/automations'), 'GET', admin);
    assert.ok(!after.body.automations.some((a) => a.id === created.id));
  });

  it('keeps a time zone as the tz database spells it (Temporal refuses other spellings), and a deleted project takes its automations and schedules along', async () => {
    const project = { repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local' as const, allowedModels: [] };
    await services.tenants.putProject({ id: 'doomed', orgId: 'acme', ...project });
    const zoned = await add('doomed', { cron: '0 9 * * *', timezone: 'europe/berlin', prompt: 'Morning check' });
    assert.equal(zoned.timezone, 'Europe/Berlin');
    assert.equal((await services.temporal.schedule.getHandle(zoned.scheduleId).describe()).spec.timezone, 'Europe/Berlin');
    const deleted = await call(`${base}/v2/admin/projects/doomed`, 'DELETE', admin);
    assert.equal(deleted.status, 204);
    await assert.rejects(services.temporal.schedule.getHandle(zoned.scheduleId).describe(), ScheduleNotFoundError);
    // A later project of the same id starts with no automation of the old one.
    await services.tenants.putProject({ id: 'doomed', orgId: 'acme', ...project });
    assert.deepEqual((await call<{ automations: AutomationView[] }>(url('/doomed/automations'), 'GET', admin)).body.automations, []);

    // A schedule left behind all the same (its project deleted by other means) stops itself at its next firing.
    await services.tenants.putProject({ id: 'orphaned', orgId: 'acme', ...project });
    const orphan = await add('orphaned', { cron: '@daily', prompt: 'Nobody reads this' });
    await services.tenants.deleteProject('orphaned');
    const deps = { temporal: services.temporal, automations: services.automations, jobs: services.jobs, tenants: services.tenants, limiter: services.limiter, config: services.config };
    const start = await startAutomationJob(deps, { projectId: 'orphaned', automationId: orphan.id });
    assert.equal(start.kind, 'skipped');
    await assert.rejects(services.temporal.schedule.getHandle(orphan.scheduleId).describe(), ScheduleNotFoundError);
    assert.equal(await services.automations.get('orphaned', orphan.id), undefined);
  });

  it('a firing and a trigger at once start one job: the start that claims the run first makes it', async () => {
    const created = await add('manual', { cron: '@daily', prompt: 'Say gadget on page 1', paused: true });
    const deps = { temporal: services.temporal, automations: services.automations, jobs: services.jobs, tenants: services.tenants, limiter: services.limiter, config: services.config };
    let release = () => {};
    gate = new Promise((resolve) => (release = resolve));
    try {
      const before = (await jobsOf('manual')).length;
      const [fired, triggered] = await Promise.all([
        startAutomationJob(deps, { projectId: 'manual', automationId: created.id }, { jobId: automationJobId(`run-${created.id}`) }),
        call<{ jobId?: string; error?: string }>(url(`/manual/automations/${created.id}/trigger`), 'POST', admin),
      ]);
      const started = [fired.kind === 'started' ? fired.job.id : undefined, triggered.status === 202 ? triggered.body.jobId : undefined].filter(Boolean);
      assert.equal(started.length, 1, `exactly one of the two started a job: ${fired.kind}, ${triggered.status} ${JSON.stringify(triggered.body)}`);
      assert.equal((await jobsOf('manual')).length, before + 1);
      const view = await call<AutomationView>(url(`/manual/automations/${created.id}`), 'GET', admin);
      assert.equal(view.body.lastRun?.jobId, started[0], 'the last run names the job that was made');
      release();
      await pollJob(base, admin, 'manual', started[0]!, settled, 60_000);
    } finally {
      release();
    }
  });

  it('a firing whose job cannot be started says so in its last run, without the engine\'s own words, and fails for its retries', async () => {
    const paused = await add('manual', { cron: '@daily', prompt: 'Start me', paused: true });
    const failingJobs = { ...services.jobs, create: () => Promise.reject(new Error('disk full at /var/lib/quire')) };
    const deps = { temporal: services.temporal, automations: services.automations, jobs: failingJobs, tenants: services.tenants, limiter: services.limiter, config: services.config };
    await assert.rejects(startAutomationJob(deps, { projectId: 'manual', automationId: paused.id }), /disk full/);
    const seen = await call<AutomationView>(url(`/manual/automations/${paused.id}`), 'GET', admin);
    assert.equal(seen.body.lastRun?.skipped?.code, 'start_failed');
    assert.match(seen.body.lastRun?.skipped?.reason ?? '', /^the job could not be started: an unexpected error/);
    assert.doesNotMatch(JSON.stringify(seen.body), /disk full|var\/lib/);
  });

  it('refuses bad input with 400 naming the field, and keys or projects it may not use with 401, 403, 404', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ cron: '61 * * * *', prompt: 'x' }, 'cron'],
      [{ cron: '0 9 * *', prompt: 'x' }, 'cron'],
      [{ cron: '0 9 * * FUNDAY', prompt: 'x' }, 'cron'],
      [{ prompt: 'x' }, 'cron'],
      [{ cron: '@daily', interval: '1h', prompt: 'x' }, 'cron'],
      [{ interval: 'soon', prompt: 'x' }, 'interval'],
      [{ interval: '1h', timezone: 'Europe/Berlin', prompt: 'x' }, 'timezone'],
      [{ cron: '@daily', timezone: 'Mars/Olympus', prompt: 'x' }, 'timezone'],
      [{ cron: '@daily', prompt: '   ' }, 'prompt'],
      [{ cron: '@daily', prompt: 'x', model: 'not-allowed' }, 'model'],
      [{ cron: '@daily', prompt: 'x', asDraft: 'yes' }, 'asDraft'],
    ];
    for (const [body, field] of bad) {
      const reply = await call<{ code: string; details: Array<{ path: string }> }>(url('/manual/automations'), 'POST', admin, body);
      assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.code, 'invalid_request');
      assert.ok(reply.body.details.some((d) => d.path === field), `${JSON.stringify(body)} names ${field}: ${JSON.stringify(reply.body)}`);
    }
    const kept = await call<{ automations: AutomationView[] }>(url('/manual/automations'), 'GET', admin);
    assert.ok(!kept.body.automations.some((a) => a.prompt === 'x'), 'nothing was created by a refused request');

    assert.equal((await call(url('/manual/automations'), 'GET', null)).status, 401);
    assert.equal((await call(url('/manual/automations'), 'GET', assistant)).status, 403);
    assert.equal((await call(url('/theirs/automations'), 'GET', admin)).status, 404, 'another organisation’s project');
    assert.equal((await call(url('/theirs/automations'), 'POST', admin, { cron: '@daily', prompt: 'x' })).status, 404);
    assert.equal((await call(url('/nope/automations'), 'GET', admin)).status, 404);
    const mine = await add('theirs', { cron: '@daily', prompt: 'Theirs' }, otherAdmin);
    for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['POST', '/pause'], ['POST', '/resume'], ['POST', '/trigger']] as const) {
      assert.equal((await call(url(`/manual/automations/aut_unknown000000${suffix}`), method, admin)).status, 404, `${method} ${suffix}`);
      assert.equal((await call(url(`/theirs/automations/${mine.id}${suffix}`), method, admin)).status, 404, `${method} ${suffix} of another org`);
    }
  });
});
