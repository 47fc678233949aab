import { WorkflowNotFoundError } from '@temporalio/client';
import { agentJobWorkflowId } from '../../core/contracts/index.js';
import { isJobId, parseJobRecord, type JobRecord, type JobStore } from '../../core/jobs/index.js';
import { classifyTemporal } from '../../core/engine-errors.js';
import type { ApiServices } from '../services.js';

export interface FoundJob {
  record: JobRecord;
  /** The workflow runs and can take messages. */
  open: boolean;
}

/**
 * Reads a job from its workflow's memo (no worker needed) and from the job store, keeping the
 * newer revision: the workflow writes the store before the memo, and the API writes the store
 * after an update, so GET never shows a state the list does not. Once Temporal has forgotten
 * the workflow, the store alone answers; so does it while Temporal is unreachable (a job it does
 * not hold then answers 503). A job of another project reads as missing.
 */
export async function readJob(services: ApiServices, store: JobStore, projectId: string, jobId: string): Promise<FoundJob | undefined> {
  if (!isJobId(jobId)) return undefined;
  let unreachable: unknown;
  const [described, stored] = await Promise.all([
    services.temporal.workflow
      .getHandle(agentJobWorkflowId(jobId))
      .describe()
      .catch((err: unknown) => {
        if (err instanceof WorkflowNotFoundError) return undefined;
        if (!classifyTemporal(err)) throw err;
        unreachable = err;
        return undefined;
      }),
    store.get(projectId, jobId),
  ]);
  if (unreachable) {
    if (!stored) throw unreachable;
    // Open: a message or an archive goes to the workflow, and answers 503 until Temporal is back.
    return { record: stored, open: stored.status !== 'archived' };
  }
  const record = parseJobRecord(described?.memo?.job);
  if (!described || !record) return stored ? { record: stored, open: false } : undefined;
  if (record.projectId !== projectId) return undefined;
  const newer = stored && stored.revision > record.revision ? stored : undefined;
  if (described.status.name === 'RUNNING') return { record: newer ?? record, open: true };
  // A closed workflow's memo is final, but the API may have archived the stored record since.
  if (newer) return { record: newer, open: false };
  return { record: described.status.name === 'COMPLETED' ? record : stopped(record), open: false };
}

/** An operator terminated or reset the workflow mid-turn: the job will not finish by itself. */
function stopped(record: JobRecord): JobRecord {
  if (record.status !== 'active') return record;
  return { ...record, status: 'failed', error: { code: 'job_stopped', message: 'the job workflow was stopped by an operator' } };
}
