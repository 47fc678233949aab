/**
 * The job-reconcile workflow's contract: what the deployment's one reconcile schedule starts every
 * minute, and the ids the worker and tests share. Imports only types, so callers never load workflow code.
 *
 * A job's workflow is the only writer of its state, and a run stopped from outside (terminated or
 * canceled in the Temporal UI or CLI, or timed out) can no longer write it: the job would stay
 * `active`. The reconcile's activity finds such jobs and records them failed through the job
 * workflow's own record path (see core/jobs/stranded-jobs.ts).
 */

export const RECONCILE_JOBS_WORKFLOW = 'reconcileJobsWorkflow';
export type ReconcileJobsWorkflow = () => Promise<ReconcileJobsResult>;

/** What one reconcile did. Small: it is the run's result. */
export interface ReconcileJobsResult {
  /** Active jobs whose workflow it looked at. */
  looked: number;
  /** Jobs it recorded failed. */
  failed: number;
  /** The first of those jobs, with the code each was failed with. */
  jobs: Array<{ jobId: string; code: string }>;
  /** True when its time ran out before every job was looked at: the next firing looks again. */
  cutShort: boolean;
}

/** What every reconcile schedule's id begins with: how a worker finds the other deployments' ones. */
export const RECONCILE_JOBS_SCHEDULE_PREFIX = 'quire-reconcile-jobs-';

/**
 * One schedule per task queue (so per deployment: deployments sharing a namespace each poll their
 * own queue and keep their own database), its id readable in the Temporal UI.
 */
export function reconcileJobsScheduleId(taskQueue: string): string {
  return `${RECONCILE_JOBS_SCHEDULE_PREFIX}${taskQueue}`;
}

/** The id of the reconcile workflows the schedule starts (Temporal appends the firing time). */
export function reconcileJobsWorkflowId(taskQueue: string): string {
  return `quire-reconcile-jobs-run-${taskQueue}`;
}
