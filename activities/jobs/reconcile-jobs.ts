import type { ReconcileJobsResult } from '../../core/contracts/job-reconcile.js';
import { failStrandedJobs, stoppedLatelyOf, stoppedRunOf, STOPPED_LATELY_LIMIT } from '../../core/jobs/index.js';
import { activitySignal, keepAlive } from '../activity-context.js';
import type { ActivityServices } from '../services.js';
import { createJobActivities, type JobActivityDeps } from './record-job.js';

/** Jobs active and unchanged this long have their workflow described whoever lists them; a job with no workflow counts as never started. */
export const STRANDED_AFTER_MS = 60_000;
/** How far back Temporal's list of stopped runs looks: the database's list finds anything older. */
export const STOPPED_LOOKBACK_MS = 60 * 60_000;
/** Each call to Temporal gets this long: one that hangs does not hold up the others. */
const CALL_DEADLINE_MS = 15_000;
/** A reconcile stops taking jobs after this long (its activity has 2 minutes): the next firing goes on. */
const RECONCILE_BUDGET_MS = 90_000;

/** What the reconcile uses: the job activities' own write, and Temporal to list and describe runs. */
export type ReconcileActivityDeps = JobActivityDeps & Pick<ActivityServices, 'temporal'>;

export interface ReconcileOptions {
  /** See STRANDED_AFTER_MS. */
  afterMs?: number;
  /** See STOPPED_LOOKBACK_MS. */
  lookbackMs?: number;
  /** The clock that says how long a job has been unchanged (tests move it instead of waiting). */
  now?: () => number;
}

/**
 * The job-reconcile workflow's activity. A run stopped from outside can no longer record its job,
 * so this activity, workflow code as the job's own runs are, records it in their place, through the
 * same write (`recordJob`: the record and its events in one transaction, then the webhooks).
 */
export function createReconcileActivities(services: ReconcileActivityDeps, options: ReconcileOptions = {}) {
  const { recordJob } = createJobActivities(services);
  return {
    async reconcileStoppedJobs(): Promise<ReconcileJobsResult> {
      const { temporal, config, logger } = services;
      const now = options.now?.() ?? Date.now();
      const ends = Date.now() + RECONCILE_BUDGET_MS;
      const bounded = <T>(fn: () => Promise<T>) => temporal.withDeadline(Date.now() + CALL_DEADLINE_MS, fn);
      const stop = keepAlive(10, () => undefined);
      try {
        const result = await failStrandedJobs(
          {
            jobs: services.jobs,
            logger,
            afterMs: options.afterMs ?? STRANDED_AFTER_MS,
            stoppedLately: () => bounded(() => stoppedLatelyOf(temporal, config.temporal.taskQueue, new Date(now - (options.lookbackMs ?? STOPPED_LOOKBACK_MS)), STOPPED_LATELY_LIMIT)),
            stoppedRun: (job) => bounded(() => stoppedRunOf(temporal, job)),
            record: (job, events) => recordJob({ job, events }),
            stopping: () => Date.now() >= ends || activitySignal()?.aborted === true,
          },
          now,
        );
        if (result.cutShort) logger.warn({ looked: result.looked, failed: result.failed }, 'job reconcile cut short: the next one goes on');
        return result;
      } finally {
        stop();
      }
    },
  };
}

export type ReconcileActivities = ReturnType<typeof createReconcileActivities>;
