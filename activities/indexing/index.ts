export { createIndexingActivities, type IndexingActivities } from './indexing-activities.js';
export { createPollActivities, type PollActivities } from './poll-activities.js';
export * from './types.js';
