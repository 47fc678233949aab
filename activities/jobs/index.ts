export { createJobActivities, type JobActivities } from './record-job.js';
export { createReconcileActivities, STOPPED_LOOKBACK_MS, STRANDED_AFTER_MS, type ReconcileActivities, type ReconcileOptions } from './reconcile-jobs.js';
