import { ScheduleAlreadyRunning, type Client, type ScheduleOptions, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { RECONCILE_JOBS_WORKFLOW, reconcileJobsScheduleId, reconcileJobsWorkflowId, type ReconcileJobsWorkflow } from '../contracts/job-reconcile.js';

/** How often the reconcile runs: a job shown active after its run was stopped misleads its users. */
export const RECONCILE_EVERY = '1 minute';
/** A reconcile's activity gives up after 2 minutes (and 1 retry): a stuck run never holds the next firings back for long. */
const RECONCILE_TIMEOUT = '5 minutes';

/**
 * The deployment's job-reconcile schedule, made as the domains' poll schedules are: an id derived from
 * the task queue, an action with no arguments. Overlap SKIP: a reconcile still going when the next is
 * due drops the next; firings missed while Temporal was down are not made up (the next one does it all).
 */
export function reconcileJobsScheduleOptions(taskQueue: string): ScheduleOptions<ScheduleOptionsStartWorkflowAction<ReconcileJobsWorkflow>> {
  return {
    scheduleId: reconcileJobsScheduleId(taskQueue),
    spec: { intervals: [{ every: RECONCILE_EVERY }] },
    action: {
      type: 'startWorkflow',
      workflowType: RECONCILE_JOBS_WORKFLOW,
      workflowId: reconcileJobsWorkflowId(taskQueue),
      taskQueue,
      args: [],
      workflowExecutionTimeout: RECONCILE_TIMEOUT,
      staticSummary: 'fail the active jobs whose workflow run was stopped from outside',
    },
    policies: { overlap: 'SKIP', catchupWindow: RECONCILE_EVERY, pauseOnFailure: false },
    state: { note: `every ${RECONCILE_EVERY}: jobs whose run was terminated, canceled or timed out in Temporal are recorded failed (README, "Jobs in Temporal")` },
  };
}

/**
 * Creates the reconcile schedule of `taskQueue`, or brings one already there to the current
 * options, keeping it paused (with its note) when an operator paused it. Idempotent, and safe for several workers
 * starting at once: each worker calls it at start.
 */
export async function ensureReconcileJobsSchedule(temporal: Client, taskQueue: string): Promise<void> {
  const options = reconcileJobsScheduleOptions(taskQueue);
  try {
    await temporal.schedule.create(options);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    const { scheduleId: _id, ...changed } = options;
    // An operator's pause holds, with the note that says why.
    await temporal.schedule
      .getHandle(options.scheduleId)
      .update<ReconcileJobsWorkflow>((previous) => ({ ...changed, state: { ...changed.state, ...(previous.state.paused ? { paused: true, note: previous.state.note } : {}) } }));
  }
}
