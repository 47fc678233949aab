/**
 * The built worker, as production runs it, makes its task queue's job-reconcile schedule at start,
 * runs the reconcile workflow from its prebuilt bundle when the schedule fires, and a second worker's
 * start leaves a schedule an operator paused paused. Real worker processes, the Temporal dev server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { RECONCILE_JOBS_WORKFLOW, reconcileJobsScheduleId, type ReconcileJobsWorkflow } from '../../../core/contracts/index.js';
import { reconcileJobsScheduleOptions } from '../../../core/jobs/index.js';
import { tempDir } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { spawnWorker } from '../../support/worker-process.js';

async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, output: () => string): Promise<T> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const value = await probe().catch((err: unknown) => {
      if (err instanceof ScheduleNotFoundError) return undefined;
      throw err;
    });
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen; worker output:\n${output()}`);
}

describe('the job-reconcile schedule', function () {
  this.timeout(180_000);

  it("is made by the worker at start, fires the reconcile workflow on the worker's task queue, and is brought to the current options by each worker's start, an operator's pause kept", async () => {
    const env = await temporalEnv();
    const taskQueue = `reconcile-${randomUUID()}`;
    const workerEnv = { TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, QUIRE_DATA_DIR: await tempDir(), QUIRE_EMBEDDER: 'none' };
    const worker = spawnWorker(workerEnv);
    const schedule = env.client.schedule.getHandle(reconcileJobsScheduleId(taskQueue));
    onSuiteEnd(() => schedule.delete().catch(() => undefined));

    const described = await eventually('the schedule', () => schedule.describe(), worker.output);
    assert.equal(described.action.type, 'startWorkflow');
    assert.equal(described.action.workflowType, RECONCILE_JOBS_WORKFLOW);
    assert.equal(described.action.taskQueue, taskQueue);
    assert.equal(described.policies.overlap, 'SKIP');
    assert.deepEqual(described.spec.intervals?.map((i) => i.every), [60_000]);

    await schedule.trigger();
    const action = await eventually('a reconcile run', async () => (await schedule.describe()).info.recentActions[0]?.action, worker.output);
    const result = await env.client.workflow.getHandle<ReconcileJobsWorkflow>(action.workflow.workflowId, action.workflow.firstExecutionRunId).result();
    assert.deepEqual(result, { looked: 0, failed: 0, jobs: [], cutShort: false });

    // An operator pauses it; meanwhile an older release's worker had set it to fire every 5 minutes.
    await schedule.pause('looking into it');
    const { scheduleId: _id, ...older } = reconcileJobsScheduleOptions(taskQueue);
    await schedule.update<ReconcileJobsWorkflow>((previous) => ({ ...older, spec: { intervals: [{ every: '5 minutes' }] }, state: previous.state }));
    const second = spawnWorker(workerEnv);
    await eventually('the second worker making sure of the schedule', async () => (await schedule.describe()).spec.intervals?.[0]?.every === 60_000, second.output);
    const state = (await schedule.describe()).state;
    assert.deepEqual([state.paused, state.note], [true, 'looking into it'], "the operator's pause and its note are kept");
    await schedule.delete();
  });
});
