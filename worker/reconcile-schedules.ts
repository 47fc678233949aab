import type { Client } from '@temporalio/client';
import { reconcileJobsScheduleId } from '../core/contracts/index.js';
import { rootReason } from '../core/errors.js';
import { ensureReconcileJobsSchedule, pruneReconcileSchedules, type ReconcileScheduleVerdict } from '../core/jobs/index.js';
import type { Logger } from '../core/logger.js';

/**
 * How often a running worker looks at the other queues' reconcile schedules again: a deployment
 * moved to another queue stops its old workers as the new ones start, so at that start the old
 * queue's pollers are still remembered, and only a later look finds them gone.
 */
export const PRUNE_EVERY_MS = 10 * 60_000;

/** One line per schedule deleted, or left only for its age; the others (polled, paused) at debug. */
function logVerdict(logger: Logger, v: ReconcileScheduleVerdict): void {
  const fields = { schedule: v.scheduleId, taskQueue: v.taskQueue, why: v.why };
  if (v.outcome === 'deleted') logger.info(fields, "deleted another task queue's job-reconcile schedule");
  else if (v.outcome === 'kept_fresh') logger.info(fields, `left another task queue's job-reconcile schedule for now: looked at again in ${PRUNE_EVERY_MS / 60_000} minutes`);
  else logger.debug({ ...fields, outcome: v.outcome }, "left another task queue's job-reconcile schedule");
}

/** One look at the other queues' reconcile schedules; a failure is logged, never thrown. */
async function prune(temporal: Client, taskQueue: string, logger: Logger): Promise<void> {
  try {
    for (const verdict of await pruneReconcileSchedules(temporal, taskQueue)) logVerdict(logger, verdict);
  } catch (err) {
    logger.warn({ reason: rootReason(err) }, `cannot look at the other task queues' job-reconcile schedules: looked at again in ${PRUNE_EVERY_MS / 60_000} minutes`);
  }
}

/**
 * In the background: makes sure the worker's own reconcile schedule is there, then deletes the
 * ones of other queues that no worker polls, now and every PRUNE_EVERY_MS while the worker runs.
 * Nothing here holds the worker's start back or stops it. Returns what stops the repeats.
 */
export function tendReconcileSchedules(temporal: Client, taskQueue: string, logger: Logger): () => void {
  void ensureReconcileJobsSchedule(temporal, taskQueue)
    .catch((err: unknown) =>
      logger.error(
        { reason: rootReason(err), schedule: reconcileJobsScheduleId(taskQueue) },
        'cannot create the job-reconcile schedule: a job whose run is terminated in Temporal stays active until a worker creates it at its start',
      ),
    )
    .then(() => prune(temporal, taskQueue, logger));
  const repeat = setInterval(() => void prune(temporal, taskQueue, logger), PRUNE_EVERY_MS);
  repeat.unref();
  return () => clearInterval(repeat);
}
