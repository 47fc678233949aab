import { openJobStore, type JobRecord } from '../../core/jobs/index.js';
import type { ActivityServices } from '../services.js';

/** Activities that keep the job's state in Quire's own store, beyond Temporal's retention. */
export function createJobActivities(services: ActivityServices) {
  const store = openJobStore(services.config.dataDir, services.redis);
  return {
    /** Idempotent: the store keeps the highest revision, so retries and reordering are harmless. */
    async recordJobState(record: JobRecord): Promise<void> {
      await store.put(record);
    },
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
