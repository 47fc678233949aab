export { automationInputSchema, AutomationNote, type AutomationInput } from './automation-input.js';
export { AutomationRunSchema, isAutomationId, newAutomationId, type AutomationRecord, type AutomationRun } from './automation-record.js';
export { automationScheduleOptions, scheduleStateOf, type ScheduleState } from './automation-schedule.js';
export type { AutomationStore, StoredAutomation } from './automation-store.js';
export { createAutomationStore } from './automation-store-db.js';
export { createAutomation, deleteAutomation, deleteProjectAutomations, getAutomation, listAutomations, setAutomationPaused, AutomationViewShape, type AutomationView } from './automations.js';
export { automationJobId, startAutomationJob, type AutomationDeps, type AutomationStart } from './start-automation-job.js';
export { cronProblem, intervalSeconds, isTimeZone } from './timing.js';
