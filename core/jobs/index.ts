export * from './job-record.js';
export * from './job-report.js';
export { newJobId, isJobId } from './job-id.js';
export { InvalidCursorError, type JobStore, type JobListQuery, type JobPage } from './job-store.js';
export { SqliteJobStore } from './sqlite-job-store.js';
export { RedisJobStore } from './redis-job-store.js';
export { openJobStore } from './open-job-store.js';
export { parseJobRecord } from './job-schema.js';
export { putJobPreamble, readJobPreamble, type JobPreamble, type EarlierMessage } from './job-preamble.js';
