export { createJobActivities, type JobActivities } from './record-job.js';
