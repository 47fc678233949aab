export { createAutomationActivities, AUTOMATION_WORKER_MISCONFIGURED, type AutomationActivities } from './start-automation-job.js';
