import type { JobMessage } from '../../core/contracts/agent-job.js';
import type { JobRecord } from '../../core/jobs/index.js';
import type { ActivityServices } from '../services.js';

/** Activities that keep the job's state in Quire's own store, beyond Temporal's retention. */
export function createJobActivities(services: ActivityServices) {
  const store = services.jobs;
  return {
    /** Idempotent: the store keeps the highest revision, so retries and reordering are harmless. */
    async recordJobState(record: JobRecord): Promise<void> {
      await store.put(record);
    },
    /** A message signalled by an operator, stored like the API stores one; idempotent (the first write wins). */
    async storeJobMessage(input: { projectId: string; jobId: string; message: JobMessage }): Promise<void> {
      await store.putMessage(input.projectId, input.jobId, input.message);
    },
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
