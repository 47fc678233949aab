/**
 * The start path a firing and a trigger share, on the suite's Temporal dev server with no worker
 * (a started job waits in its queue): a retried run starts one job, and the skips say why.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { automationJobId, createAutomation, startAutomationJob, type AutomationDeps } from '../../../core/automations/index.js';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import { UnavailableError } from '../../../core/errors.js';
import { consumeAgentLimit } from '../../../core/limits/index.js';
import { freePort, startRedis } from '../../support/redis.js';
import { servicesOn, testConfig, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

/** What the start path takes, from the services as the API's router passes them. */
const depsOf = (services: Awaited<ReturnType<typeof testServices>>): AutomationDeps => ({ ...services });

describe('starting an automation’s job', function () {
  this.timeout(60_000);

  it('a retried run finds the job it started; a changed model rule and a spent allowance skip with their reason', async () => {
    const services = await testServices({ taskQueue: `no-worker-${randomUUID()}`, env: { QUIRE_MODEL: 'm-a' } });
    await services.tenants.addOrg('acme', { agentCreatesPerHour: 2 });
    const project = { id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: ['m-a', 'm-b'] };
    await services.tenants.putProject(project);
    const deps = depsOf(services);
    const automation = await createAutomation(deps, 'docs', { prompt: 'Tidy up', cron: '@yearly', model: 'm-b', paused: true });
    onSuiteEnd(() => services.temporal.schedule.getHandle(automation.scheduleId).delete().catch(() => undefined));
    const ref = { projectId: 'docs', automationId: automation.id };

    const jobId = automationJobId(randomUUID());
    const first = await startAutomationJob(deps, ref, { jobId });
    const repeated = await startAutomationJob(deps, ref, { jobId });
    assert.equal(first.kind === 'started' && first.job.id, jobId);
    assert.equal(repeated.kind === 'started' && repeated.job.id, jobId, 'the repeat is the same job, not an overlap');
    assert.deepEqual((await deps.jobs.list('docs', { limit: 10 })).jobs.map((j) => [j.id, j.model]), [[jobId, 'm-b']]);
    const described = await services.temporal.workflow.getHandle(agentJobWorkflowId(jobId)).describe();
    assert.equal(described.status.name, 'RUNNING');

    const overlap = await startAutomationJob(deps, ref);
    assert.deepEqual(overlap.kind === 'skipped' && [overlap.code, overlap.reason], ['overlap', `the previous job ${jobId} is still running`]);
    assert.deepEqual((await deps.automations.get('docs', automation.id))?.lastRun?.skipped?.code, 'overlap');

    // The previous job settles; the project stops allowing the automation's model.
    const settled = await deps.jobs.get('docs', jobId);
    assert.ok(settled);
    await deps.jobs.put({ ...settled, status: 'completed', revision: settled.revision + 1 });
    await services.tenants.putProject({ ...project, allowedModels: ['m-a'] });
    const refused = await startAutomationJob(deps, ref);
    assert.deepEqual(refused.kind === 'skipped' && [refused.code, refused.reason], ['model_not_allowed', `model 'm-b' must be one of: m-a`]);

    await services.tenants.putProject(project);
    const second = await startAutomationJob(deps, ref);
    assert.equal(second.kind, 'started', 'the second of two creates this hour');
    assert.ok(second.kind === 'started');
    await deps.jobs.put({ ...second.job, status: 'completed', revision: second.job.revision + 1 });
    const limited = await startAutomationJob(deps, ref);
    assert.equal(limited.kind === 'skipped' && limited.code, 'rate_limited');
    assert.equal((await deps.automations.get('docs', automation.id))?.lastRun?.jobId, second.job.id, 'a skip keeps naming the previous job');
    assert.equal((await deps.jobs.list('docs', { limit: 10 })).jobs.length, 2);
  });

  it('a retried run whose first attempt wrote its job but could not start the workflow starts it, instead of keeping an active job without a run', async () => {
    const services = await testServices({ taskQueue: `no-worker-${randomUUID()}`, env: { QUIRE_MODEL: 'm-a' } });
    await services.tenants.addOrg('acme');
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const deps = depsOf(services);
    const automation = await createAutomation(deps, 'docs', { prompt: 'Tidy up', cron: '@yearly', paused: true });
    onSuiteEnd(() => services.temporal.schedule.getHandle(automation.scheduleId).delete().catch(() => undefined));
    const ref = { projectId: 'docs', automationId: automation.id };
    // The first attempt's Temporal client: a real one, on a port nothing listens on.
    const unreachable = await servicesOn(await testConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` }));

    const jobId = automationJobId(randomUUID());
    await assert.rejects(startAutomationJob({ ...deps, temporal: unreachable.temporal }, ref, { jobId }));
    assert.equal((await deps.jobs.get('docs', jobId))?.status, 'active', 'the record a caller-chosen id keeps for the retry');

    const retried = await startAutomationJob(deps, ref, { jobId });
    assert.equal(retried.kind === 'started' && retried.job.id, jobId);
    const described = await services.temporal.workflow.getHandle(agentJobWorkflowId(jobId)).describe();
    assert.equal(described.status.name, 'RUNNING', 'the retry started the workflow the first attempt could not');
    assert.equal((await startAutomationJob(deps, ref, { jobId })).kind, 'started', 'a further repeat joins it');
    assert.equal((await deps.jobs.list('docs', { limit: 10 })).jobs.length, 1);
  });
});

for (const store of ['memory', 'redis'] as const) {
  describe(`an automation's start refused after it counted spends no create (limits in ${store})`, function () {
    this.timeout(60_000);
    const LIMITS = { agentCreatesPerHour: 5 };

    /** A project with one paused automation, its limits in memory or a redis-server of its own. */
    async function world() {
      const redis: Record<string, string> = store === 'redis' ? { REDIS_URL: (await startRedis()).url } : {};
      const services = await testServices({ taskQueue: `no-worker-${randomUUID()}`, env: { QUIRE_MODEL: 'm-a', ...redis } });
      await services.tenants.addOrg('acme', LIMITS);
      await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
      const deps = depsOf(services);
      const automation = await createAutomation(deps, 'docs', { prompt: 'Tidy up', cron: '@yearly', paused: true });
      onSuiteEnd(() => services.temporal.schedule.getHandle(automation.scheduleId).delete().catch(() => undefined));
      /** What is left of the hourly creates, read by spending one more as a start would. */
      const left = async () => (await consumeAgentLimit(services.limiter, LIMITS, 'docs', 'create')).remaining;
      return { services, deps, ref: { projectId: 'docs', automationId: automation.id }, left };
    }

    it('a start whose job could not be stored (the database and Temporal down) gives its unit back; one whose record stands keeps it for the retry that starts it', async () => {
      const { deps, ref, left } = await world();
      const unreachable = await servicesOn(await testConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` }));
      const failingStore = { ...deps.jobs, create: () => Promise.reject(new UnavailableError('database')) };
      for (let i = 0; i < 3; i++) {
        await assert.rejects(startAutomationJob({ ...deps, temporal: unreachable.temporal, jobs: failingStore }, ref, { jobId: automationJobId(randomUUID()) }), UnavailableError);
      }
      assert.equal(await left(), 4, 'three refused starts spent nothing');

      // Its record written, its workflow not started: the retry starts it without counting again, on this start's unit.
      const jobId = automationJobId(randomUUID());
      await assert.rejects(startAutomationJob({ ...deps, temporal: unreachable.temporal }, ref, { jobId }));
      assert.equal((await startAutomationJob(deps, ref, { jobId })).kind, 'started');
      assert.equal(await left(), 2, 'one job, one create');
    });

    it('a start its project refuses once counted (its delete began meanwhile) gives its unit back', async () => {
      const { services, deps, ref, left } = await world();
      // The delete begins between the start's check of the project and its job's write.
      const deleting = { ...deps.jobs, create: async (...args: Parameters<typeof deps.jobs.create>) => (await services.tenants.beginProjectDeletion('docs'), deps.jobs.create(...args)) };
      const start = await startAutomationJob({ ...deps, jobs: deleting }, ref, { jobId: automationJobId(randomUUID()) });
      assert.equal(start.kind === 'skipped' && start.code, 'project_deleted');
      assert.equal(await left(), 4);
    });
  });
}
