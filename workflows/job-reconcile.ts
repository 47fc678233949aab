import { proxyActivities } from '@temporalio/workflow';
import type { ReconcileActivities } from '../activities/jobs/index.js';
import type { ReconcileJobsResult } from '../core/contracts/job-reconcile.js';

const reconcile = proxyActivities<ReconcileActivities>({
  // The activity stops taking jobs after 90 s and heartbeats meanwhile.
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  // Safe to repeat (a job failed once is no longer active); the next firing, a minute on, tries again anyway.
  retry: { initialInterval: '5 seconds', maximumAttempts: 2 },
  summary: 'fail the active jobs whose workflow run was stopped from outside',
});

/**
 * What the deployment's reconcile schedule starts every minute: one activity that records failed,
 * through the job workflow's own write, each active job whose latest run was terminated, canceled
 * or timed out in Temporal (or never started). Nothing of any job passes through this history but
 * the ids in its result.
 */
export async function reconcileJobsWorkflow(): Promise<ReconcileJobsResult> {
  return reconcile.reconcileStoppedJobs();
}
