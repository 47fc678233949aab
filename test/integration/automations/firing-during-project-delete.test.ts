/**
 * An automation's firing whose project's delete has begun: the real schedule on the Temporal dev
 * server, a real worker with the real activities, the API over HTTP. The firing ends at once with
 * `project_deleted` (no retry), and leaves no job and no job run waiting.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type ScheduleHandle } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import { automationJobId, createAutomation } from '../../../core/automations/index.js';
import { agentJobWorkflowId, type AutomationRunResult } from '../../../core/contracts/index.js';
import type { JobStore } from '../../../core/jobs/index.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { call } from '../agent-jobs/agent-api.js';

/** The run workflow a trigger of the schedule started, once the schedule lists it. */
async function triggeredRun(schedule: ScheduleHandle): Promise<{ workflowId: string; firstExecutionRunId: string }> {
  await schedule.trigger();
  for (;;) {
    const action = (await schedule.describe()).info.recentActions[0]?.action;
    if (action) return action.workflow;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an automation firing while its project is deleted (real worker, Temporal)', function () {
  this.timeout(120_000);

  it('ends at once with project_deleted, without retries, whether the delete began before the firing or while it started its job; no job run is left', async () => {
    const services = await testServices({ taskQueue: `automation-project-delete-${randomUUID()}`, env: { QUIRE_MODEL: 'test-model' } });
    const { adminKey } = await seedOrg(services);
    const project = (id: string) => ({ id, orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] });
    await services.tenants.putProject(project('marked'));
    await services.tenants.putProject(project('racing'));
    // For 'racing' the delete begins just after the firing's own check of the project, before its job's create.
    const jobs: JobStore = {
      ...services.jobs,
      requireOpenProject: async (projectId) => {
        await services.jobs.requireOpenProject(projectId);
        if (projectId === 'racing') await services.tenants.beginProjectDeletion(projectId);
      },
    };
    await startWorker({ ...services, jobs }, { taskQueue: services.config.temporal.taskQueue });
    const base = (await serve(createApp(services))).url;

    const fire = async (projectId: string) => {
      const automation = await createAutomation(services, projectId, { prompt: 'Check the links', cron: '@yearly' });
      const schedule = services.temporal.schedule.getHandle(automation.scheduleId);
      onSuiteEnd(() => schedule.delete().catch(() => undefined));
      const run = await triggeredRun(schedule);
      const handle = services.temporal.workflow.getHandle(run.workflowId, run.firstExecutionRunId);
      const result = (await handle.result()) as AutomationRunResult;
      const events = (await handle.fetchHistory()).events ?? [];
      const attempts = events.flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : []));
      const jobId = automationJobId(run.firstExecutionRunId);
      const stored = await services.automations.get(projectId, automation.id);
      return { automation, result, attempts, jobId, lastRun: stored?.lastRun };
    };

    // Marked before the firing: it starts nothing.
    await services.tenants.beginProjectDeletion('marked');
    const marked = await fire('marked');
    assert.deepEqual(marked.result, { skipped: 'project_deleted', reason: "project 'marked' is being deleted: no job can be started for it" });
    assert.deepEqual(marked.attempts, [1], 'one attempt, not retried');
    assert.deepEqual(marked.lastRun && [marked.lastRun.skipped?.code, marked.lastRun.jobId], ['project_deleted', null]);
    assert.equal(await services.jobs.get('marked', marked.jobId), undefined);
    await assert.rejects(services.temporal.workflow.getHandle(agentJobWorkflowId(marked.jobId)).describe(), WorkflowNotFoundError, 'no job run was started');

    // Its trigger answers as a job create does.
    const triggered = await call<{ code: string; error: string }>(`${base}/v2/agent/marked/automations/${marked.automation.id}/trigger`, 'POST', adminKey);
    assert.equal(triggered.status, 409, JSON.stringify(triggered.body));
    assert.equal(triggered.body.code, 'conflict');

    // Marked while the firing starts its job: the job store's create refuses it, and the run it started is stopped.
    const racing = await fire('racing');
    assert.deepEqual(racing.result, { skipped: 'project_deleted', reason: "project 'racing' is being deleted: no job can be started for it" });
    assert.deepEqual(racing.attempts, [1], 'one attempt, not retried');
    assert.equal(racing.lastRun?.skipped?.code, 'project_deleted');
    assert.equal(await services.jobs.get('racing', racing.jobId), undefined);
    const jobRun = await services.temporal.workflow.getHandle(agentJobWorkflowId(racing.jobId)).describe();
    assert.equal(jobRun.status.name, 'TERMINATED', 'the job run the refused create started is not left waiting');
  });
});
