import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { agentJobWorkflowId } from '../contracts/agent-job.js';
import type { Logger } from '../logger.js';
import type { JobEventLog, NewJobEvent } from './job-events.js';
import type { JobError, JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';

/**
 * How a job's latest run ended without its workflow, the only writer of job state, recording it:
 * stopped from outside (an operator's terminate or cancel in the Temporal UI, a workflow timeout),
 * or never started at all (its record was written and the start failed, and nothing removed the
 * record: an automation's attempts spent, a create whose clean-up failed too).
 */
export interface StoppedRun {
  status: 'TERMINATED' | 'CANCELLED' | 'TIMED_OUT' | 'NEVER_STARTED';
  /** The stopped run's id; for a run that never started, none. */
  runId: string | null;
}

/** The job's error code for each way a run is stopped from outside. */
export const STOPPED_RUN_CODES: Record<StoppedRun['status'], string> = {
  TERMINATED: 'run_terminated',
  CANCELLED: 'run_canceled',
  TIMED_OUT: 'run_timed_out',
  NEVER_STARTED: 'run_never_started',
};

const STOPPED_HOW: Record<StoppedRun['status'], string> = {
  TERMINATED: "the job's workflow run was terminated in Temporal while the job was active",
  CANCELLED: "the job's workflow run was canceled in Temporal while the job was active",
  TIMED_OUT: "the job's workflow run timed out in Temporal while the job was active",
  NEVER_STARTED: "the job's workflow never started in Temporal (it could not be reached, or refused the start, when the job was created)",
};

/** Active jobs one sweep looks at, at most: each costs a describe of its workflow. */
const STRANDED_SLICE = 100;

/**
 * The latest run of the job's workflow when it was stopped from outside or never started;
 * undefined when it is running or ended on its own (it then recorded the job). Asked only of jobs
 * active and unchanged for a while, so a create still starting its workflow is not among them.
 */
export async function stoppedRunOf(temporal: Client, job: Pick<JobRecord, 'id'>): Promise<StoppedRun | undefined> {
  try {
    const run = await temporal.workflow.getHandle(agentJobWorkflowId(job.id)).describe();
    const status = run.status.name;
    return status === 'TERMINATED' || status === 'CANCELLED' || status === 'TIMED_OUT' ? { status, runId: run.runId } : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { status: 'NEVER_STARTED', runId: null };
    throw err;
  }
}

/** The job as a stopped run leaves it: failed with the reason, one revision on, and its `job.failed` event. Pure. */
export function stoppedRunFailure(job: JobRecord, run: StoppedRun, now: string): { job: JobRecord; event: NewJobEvent } {
  const error: JobError = {
    code: STOPPED_RUN_CODES[run.status],
    message: `${STOPPED_HOW[run.status]}; send a message to start a new run`,
  };
  return {
    job: { ...job, status: 'failed', error, updatedAt: now, revision: job.revision + 1 },
    // Keyed by the run: a sweep that runs twice (or on two replicas) logs it once.
    event: { key: `run:${run.runId ?? 'never-started'}:stopped`, type: 'job.failed', time: now, jobId: job.id, projectId: job.projectId, data: { turns: job.turns, error } },
  };
}

export interface StrandedJobsOptions {
  jobs: JobStore;
  events: JobEventLog;
  logger: Logger;
  /** How long a job stays active and unchanged before its run is looked at. */
  afterMs: number;
  /** The latest run when it was stopped from outside (`stoppedRunOf`, bounded in time). */
  stoppedRun(job: JobRecord): Promise<StoppedRun | undefined>;
  /** True once the process stops: the sweep ends after the job it is at. */
  stopping?: () => boolean;
}

/**
 * Fails the active jobs whose workflow was stopped from outside, each through the workflow's own
 * record path (the record and its `job.failed` event in one transaction); returns how many.
 */
export async function failStrandedJobs(options: StrandedJobsOptions, nowMs: number): Promise<number> {
  const { jobs, events, logger } = options;
  const before = new Date(nowMs - options.afterMs).toISOString();
  const stale = await jobs.unchangedBefore(['active'], before, STRANDED_SLICE);
  let failed = 0;
  for (const job of stale) {
    if (options.stopping?.()) break;
    try {
      const run = await options.stoppedRun(job);
      if (!run) continue;
      // A follow-up that started a new run meanwhile has written a newer revision: that run owns the job.
      if ((await jobs.get(job.projectId, job.id))?.revision !== job.revision) continue;
      const stopped = stoppedRunFailure(job, run, new Date(nowMs).toISOString());
      await events.record(stopped.job, [stopped.event]);
      failed += 1;
      logger.warn({ jobId: job.id, runId: run.runId, code: stopped.job.error?.code }, 'job failed: its workflow run was stopped from outside');
    } catch (err) {
      // Temporal or the database not answering now: the next sweep looks again.
      logger.warn({ err: err instanceof Error ? err.message : String(err), jobId: job.id }, 'stranded job not reconciled');
    }
  }
  return failed;
}
