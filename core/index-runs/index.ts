export { startIndexRun } from './start-index-run.js';
export { deleteDomainPollSchedule, domainPollScheduleOptions, syncDomainPollSchedule } from './poll-schedule.js';
