export { startIndexRun } from './start-index-run.js';
export { deleteDomainPollSchedule, domainPollScheduleOptions, syncDomainPollSchedule, syncDomainPollSchedules } from './poll-schedule.js';
