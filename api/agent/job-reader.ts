import { WorkflowNotFoundError } from '@temporalio/client';
import { isJobId, parseJobRecord, workflowIdOf, type JobRecord, type JobStore } from '../../core/jobs/index.js';
import type { ApiServices } from '../services.js';

export interface FoundJob {
  record: JobRecord;
  /** The workflow runs and can take messages. */
  open: boolean;
}

/**
 * Reads a job from its workflow's memo (no worker needed), else from the job
 * store once Temporal has forgotten the workflow. A job of another project reads as missing.
 */
export async function readJob(services: ApiServices, store: JobStore, projectId: string, jobId: string): Promise<FoundJob | undefined> {
  if (!isJobId(jobId)) return undefined;
  try {
    const described = await services.temporal.workflow.getHandle(workflowIdOf(jobId)).describe();
    const record = parseJobRecord(described.memo?.job);
    if (record) {
      if (record.projectId !== projectId) return undefined;
      if (described.status.name === 'RUNNING') return { record, open: true };
      // A closed workflow's memo is final, but the API may have archived the stored record since.
      const stored = await store.get(projectId, jobId);
      if (stored && stored.revision > record.revision) return { record: stored, open: false };
      return { record: described.status.name === 'COMPLETED' ? record : stopped(record), open: false };
    }
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  const stored = await store.get(projectId, jobId);
  return stored ? { record: stored, open: false } : undefined;
}

/** An operator terminated or reset the workflow mid-turn: the job will not finish by itself. */
function stopped(record: JobRecord): JobRecord {
  if (record.status !== 'active') return record;
  return { ...record, status: 'failed', error: { code: 'job_stopped', message: 'the job workflow was stopped by an operator' } };
}
