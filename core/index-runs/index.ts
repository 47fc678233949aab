export { startIndexRun } from './start-index-run.js';
export { reindexOnLanguageChange } from './language-change.js';
export { followSeed } from './follow-seed.js';
export { deleteDomainPollSchedule, domainPollScheduleOptions, followTaskQueue, syncDomainPollSchedule, syncDomainPollSchedules, type PollScheduleMove } from './poll-schedule.js';
export { MAX_POLL_BACKOFF_MS, pollBackoff, polledRunMemo, pollRetryDue, type PollBackoff, type PolledRunMemo } from './poll-backoff.js';
