export { createAutomationActivities, type AutomationActivities } from './start-automation-job.js';
