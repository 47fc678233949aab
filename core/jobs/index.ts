export * from './job-record.js';
export * from './job-report.js';
export { newJobId, isJobId, jobIdForKey } from './job-id.js';
export { InvalidCursorError, type JobStore, type JobListQuery, type JobPage, type JobRef } from './job-store.js';
export { createJobStore, putJobRecord, deleteJob } from './database-job-store.js';
export { isClosedProject, ProjectDeletedError, ProjectDeletingError } from './closed-project.js';
export { parseJobRecord, JobViewShape } from './job-schema.js';
export { putJobPreamble, readJobPreamble, type JobPreamble, type EarlierMessage } from './job-preamble.js';
export { createJob, neverStarted, newJobRecord, type CreatedJob, type JobRequest } from './create-job.js';
export { archiveJobRun, jobRunOptions, jobSettings, runInput, sendJobMessage, type JobRunDeps } from './job-runs.js';
export { jobModel, type ModelChoice } from './job-model.js';
export * from './job-events.js';
export { createJobEventLog, appendJobEvent } from './database-job-event-log.js';
export { openJobWakeups, pollingJobWakeups, redisJobWakeups, waitForEvents, type JobWakeups } from './job-wakeups.js';
export { JobRetention, type JobRetentionOptions, type JobPurge } from './job-retention.js';
export {
  failStrandedJobs,
  stoppedLatelyOf,
  stoppedRunFailure,
  stoppedRunOf,
  stoppedRunsQuery,
  stopReasonText,
  STOPPED_LATELY_LIMIT,
  STOPPED_RUN_CODES,
  STOP_REASON_CHARS,
  type StoppedRun,
  type StrandedJobsOptions,
} from './stranded-jobs.js';
export { ensureReconcileJobsSchedule, reconcileJobsScheduleOptions, RECONCILE_EVERY } from './reconcile-schedule.js';
export { pruneReconcileSchedules, POLLED_WITHIN_MS, TOUCHED_WITHIN_MS, type ReconcileScheduleVerdict } from './reconcile-prune.js';
