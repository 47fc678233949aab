import { ScheduleNotFoundError, type Client, type ScheduleDescription } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { RECONCILE_JOBS_SCHEDULE_PREFIX, RECONCILE_JOBS_WORKFLOW, reconcileJobsScheduleId } from '../contracts/job-reconcile.js';

/**
 * A queue counts as served while a worker polled it this recently. A live worker's long poll comes
 * back at least every minute or so; Temporal itself forgets a poller after 5 minutes.
 */
export const POLLED_WITHIN_MS = 5 * 60_000;
/**
 * A schedule made or changed this recently is left alone: a worker ensures its schedule just before
 * it starts polling, so a deployment starting now would otherwise look unserved for a moment.
 */
export const TOUCHED_WITHIN_MS = 2 * 60_000;

/** What a look at one other queue's reconcile schedule decided, and why (for the log). */
export interface ReconcileScheduleVerdict {
  scheduleId: string;
  taskQueue: string;
  /** `kept_fresh` is the one kept only for its age: the next look deletes it unless a worker turns up. */
  outcome: 'deleted' | 'kept_polled' | 'kept_paused' | 'kept_fresh' | 'gone';
  why: string;
}

/** The task queue a schedule's firings go to when it is one of Quire's reconcile schedules, as its own id says. */
function reconcileTaskQueueOf(scheduleId: string, described: ScheduleDescription): string | undefined {
  const { action } = described;
  if (action.type !== 'startWorkflow' || action.workflowType !== RECONCILE_JOBS_WORKFLOW) return undefined;
  return reconcileJobsScheduleId(action.taskQueue) === scheduleId ? action.taskQueue : undefined;
}

/** When a worker last polled `taskQueue` for workflow tasks, or undefined when none Temporal remembers did. */
async function lastPolled(temporal: Client, taskQueue: string): Promise<number | undefined> {
  // The queue type left unset is the workflow queue: the one the reconcile workflow waits on.
  const { pollers } = await temporal.workflowService.describeTaskQueue({ namespace: temporal.options.namespace, taskQueue: { name: taskQueue } });
  const times = pollers.map((p) => optionalTsToMs(p.lastAccessTime) ?? 0);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** Decides about one other queue's reconcile schedule and, when nothing serves that queue, deletes it. */
async function judge(temporal: Client, scheduleId: string, taskQueue: string, described: ScheduleDescription, now: number): Promise<ReconcileScheduleVerdict> {
  const verdict = (outcome: ReconcileScheduleVerdict['outcome'], why: string) => ({ scheduleId, taskQueue, outcome, why });
  // A paused schedule starts nothing; the operator who paused it decides.
  if (described.state.paused) return verdict('kept_paused', 'paused by an operator');
  const polled = await lastPolled(temporal, taskQueue);
  if (polled !== undefined && now - polled < POLLED_WITHIN_MS) return verdict('kept_polled', 'a worker polls its task queue');
  const idle = `no worker has polled task queue ${taskQueue} in the last ${POLLED_WITHIN_MS / 60_000} minutes`;
  const touched = Math.max(described.info.createdAt.getTime(), described.info.lastUpdatedAt?.getTime() ?? 0);
  if (now - touched < TOUCHED_WITHIN_MS) return verdict('kept_fresh', `${idle}, but a worker made or changed the schedule in the last ${TOUCHED_WITHIN_MS / 60_000} minutes`);
  try {
    await temporal.schedule.getHandle(scheduleId).delete();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return verdict('gone', 'deleted meanwhile (by another worker)');
    throw err;
  }
  return verdict('deleted', `${idle}: each firing would start a run that times out`);
}

/**
 * Deletes the reconcile schedules of the namespace's other task queues that no worker serves (a
 * deployment moved to another queue, a staging one gone): each of their firings starts a workflow
 * nobody polls, which times out. Only schedules that are reconcile schedules by id and by action,
 * never `ownTaskQueue`'s; a paused one, one whose queue is polled, or one a worker made or changed
 * lately is left. A deployment whose workers were only down gets its schedule back at their start.
 * `now` is the time to judge by (tests look from later on).
 */
export async function pruneReconcileSchedules(temporal: Client, ownTaskQueue: string, now = Date.now): Promise<ReconcileScheduleVerdict[]> {
  const own = reconcileJobsScheduleId(ownTaskQueue);
  const verdicts: ReconcileScheduleVerdict[] = [];
  for await (const summary of temporal.schedule.list()) {
    const { scheduleId } = summary;
    if (!scheduleId.startsWith(RECONCILE_JOBS_SCHEDULE_PREFIX) || scheduleId === own) continue;
    const described = await temporal.schedule
      .getHandle(scheduleId)
      .describe()
      .catch((err: unknown) => {
        if (err instanceof ScheduleNotFoundError) return undefined;
        throw err;
      });
    const taskQueue = described && reconcileTaskQueueOf(scheduleId, described);
    if (!described || taskQueue === undefined || taskQueue === ownTaskQueue) continue;
    verdicts.push(await judge(temporal, scheduleId, taskQueue, described, now()));
  }
  return verdicts;
}
