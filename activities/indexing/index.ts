export { createIndexingActivities, type IndexingActivities } from './indexing-activities.js';
export * from './types.js';
