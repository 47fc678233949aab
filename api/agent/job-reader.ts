import { isJobId, type JobRecord, type JobStore } from '../../core/jobs/index.js';

export interface FoundJob {
  record: JobRecord;
  /** The job takes messages: it is not archived. */
  open: boolean;
}

/**
 * Reads a job from Quire's database, its only record (the API writes the first state, the job's
 * workflow every later one), so GET needs no worker and no Temporal. A job of another project
 * reads as missing.
 */
export async function readJob(store: JobStore, projectId: string, jobId: string): Promise<FoundJob | undefined> {
  if (!isJobId(jobId)) return undefined;
  const record = await store.get(projectId, jobId);
  return record ? { record, open: record.status !== 'archived' } : undefined;
}
