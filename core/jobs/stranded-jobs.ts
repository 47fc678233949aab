import { TerminatedFailure, WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { AGENT_JOB_WORKFLOW, agentJobWorkflowId, jobIdOfWorkflow } from '../contracts/agent-job.js';
import type { ReconcileJobsResult } from '../contracts/job-reconcile.js';
import { PROJECT_ID } from '../contracts/search-attributes.js';
import { scrubSecrets, type Logger } from '../logger.js';
import { filterLiteral } from '../temporal/list-filter.js';
import type { NewJobEvent } from './job-events.js';
import type { JobError, JobRecord } from './job-record.js';
import type { JobRef, JobStore } from './job-store.js';

/**
 * How a job's latest run ended without its workflow, the only writer of job state, recording it:
 * stopped from outside (an operator's terminate or cancel in the Temporal UI or CLI, a workflow
 * timeout), or never started at all (its record was written and the start failed, and nothing
 * removed the record: an automation's attempts spent, a create whose clean-up failed too).
 */
export interface StoppedRun {
  status: 'TERMINATED' | 'CANCELLED' | 'TIMED_OUT' | 'NEVER_STARTED';
  /** The stopped run's id; for a run that never started, none. */
  runId: string | null;
  /** The reason the operator gave Temporal with the terminate, as `stopReasonText` keeps it; none when there was none. */
  reason?: string | null;
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

/** The most characters of a terminate reason a job's error quotes. */
export const STOP_REASON_CHARS = 200;
/** What the SDK reports for a terminate sent without a reason: no reason at all. */
const NO_TERMINATE_REASON = 'Workflow execution terminated';

/**
 * A terminate reason as a job's error may quote it (the API shows it to everyone who reads the
 * job): credentials and keys masked, on one line without control characters, at most
 * `STOP_REASON_CHARS` characters; null when there is nothing to quote. Pure.
 */
export function stopReasonText(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const line = scrubSecrets(raw)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!line || line === NO_TERMINATE_REASON) return null;
  const chars = [...line];
  return chars.length > STOP_REASON_CHARS ? `${chars.slice(0, STOP_REASON_CHARS - 1).join('')}…` : line;
}

/** The reason a terminated run was given, read from its close event (as a client reads a run's result). */
async function terminateReasonOf(temporal: Client, workflowId: string, runId: string): Promise<string | null> {
  try {
    await temporal.workflow.getHandle(workflowId, runId, { followRuns: false }).result();
    return null;
  } catch (err) {
    if (err instanceof WorkflowFailedError) return err.cause instanceof TerminatedFailure ? stopReasonText(err.cause.message) : null;
    throw err;
  }
}

/**
 * The latest run of the job's workflow when it was stopped from outside (with the terminate's
 * reason) or never started; undefined when it is running, continued as new, or ended on its own
 * (it then recorded the job). A job's latest run is the one a follow-up started after a stop.
 */
export async function stoppedRunOf(temporal: Client, job: Pick<JobRecord, 'id'>): Promise<StoppedRun | undefined> {
  try {
    const run = await temporal.workflow.getHandle(agentJobWorkflowId(job.id)).describe();
    const status = run.status.name;
    if (status === 'TERMINATED') return { status, runId: run.runId, reason: await terminateReasonOf(temporal, run.workflowId, run.runId) };
    return status === 'CANCELLED' || status === 'TIMED_OUT' ? { status, runId: run.runId } : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { status: 'NEVER_STARTED', runId: null };
    throw err;
  }
}

/**
 * Temporal's list filter for the agent-job runs of `taskQueue` closed Terminated, Canceled or
 * TimedOut since `since`. Not filtered on `QuireJobStatus`: a run lists the status it is about to
 * record before its activity writes it, so a run stopped in between lists another status than the
 * job's; the job's record in the database decides. Pure.
 */
export function stoppedRunsQuery(taskQueue: string, since: Date): string {
  return [
    `WorkflowType = ${filterLiteral(AGENT_JOB_WORKFLOW)}`,
    `TaskQueue = ${filterLiteral(taskQueue)}`,
    `ExecutionStatus IN ('Terminated', 'Canceled', 'TimedOut')`,
    `CloseTime >= ${filterLiteral(since.toISOString())}`,
  ].join(' AND ');
}

/**
 * The jobs (at most `limit`) whose agent-job runs on `taskQueue` Temporal's visibility lists as
 * stopped from outside since `since`, each named once, by the project its run's `QuireProjectId` names.
 */
export async function stoppedLatelyOf(temporal: Client, taskQueue: string, since: Date, limit: number): Promise<JobRef[]> {
  const found = new Map<string, JobRef>();
  for await (const run of temporal.workflow.list({ query: stoppedRunsQuery(taskQueue, since), pageSize: Math.min(limit, 1000) })) {
    const projectId = run.typedSearchAttributes.get(PROJECT_ID);
    const jobId = jobIdOfWorkflow(run.workflowId);
    if (typeof projectId === 'string' && !found.has(jobId)) found.set(jobId, { projectId, jobId });
    if (found.size >= limit) break;
  }
  return [...found.values()];
}

/** The job as a stopped run leaves it: failed with the reason, one revision on, and its `job.failed` event. Pure. */
export function stoppedRunFailure(job: JobRecord, run: StoppedRun, now: string): { job: JobRecord; event: NewJobEvent } {
  const given = run.reason ? ` (the reason given: ${JSON.stringify(run.reason)})` : '';
  const error: JobError = {
    code: STOPPED_RUN_CODES[run.status],
    message: `${STOPPED_HOW[run.status]}${given}; send a message to start a new run`,
  };
  return {
    job: { ...job, status: 'failed', error, updatedAt: now, revision: job.revision + 1 },
    // Keyed by the run: a reconcile that runs twice (or a retried activity) logs it once.
    event: { key: `run:${run.runId ?? 'never-started'}:stopped`, type: 'job.failed', time: now, jobId: job.id, projectId: job.projectId, data: { turns: job.turns, error } },
  };
}

/** Active jobs unchanged for `afterMs` one reconcile looks at, at most: each costs a describe of its workflow. */
export const STRANDED_SLICE = 100;
/** Jobs named by Temporal's list one reconcile looks at, at most. */
export const STOPPED_LATELY_LIMIT = 500;
/** Jobs a reconcile's result names (it counts them all). */
const NAMED_IN_RESULT = 20;

export interface StrandedJobsOptions {
  jobs: Pick<JobStore, 'get' | 'unchangedBefore'>;
  logger: Logger;
  /**
   * How long a job stays active and unchanged before its workflow is described whoever lists it,
   * and before a job with no workflow counts as never started (its create may still be starting it).
   */
  afterMs: number;
  /** The jobs Temporal lists as stopped from outside lately (`stoppedLatelyOf`), looked at whatever their age. */
  stoppedLately(): Promise<JobRef[]>;
  /** The latest run when it was stopped from outside or never started (`stoppedRunOf`, bounded in time). */
  stoppedRun(job: JobRecord): Promise<StoppedRun | undefined>;
  /** The job workflow's own write: the record and its new events in one transaction, then the events to the webhooks. */
  record(job: JobRecord, events: NewJobEvent[]): Promise<void>;
  /** True once the time is up or the activity is cancelled: the reconcile ends after the job it is at. */
  stopping?: () => boolean;
}

/**
 * Fails the active jobs whose latest workflow run was stopped from outside or never started, each
 * through the job workflow's own record path (the record and its `job.failed` event in one
 * transaction). It looks at the jobs Temporal lists as stopped lately, then at the jobs active and
 * unchanged for `afterMs` (which also finds what the list missed: a run stopped while no reconcile
 * ran, a job that never had a run). A job whose run is open, continued as new, or ended on its own
 * is left alone. Idempotent: a job failed once is no longer active, and its event is keyed by the run.
 */
export async function failStrandedJobs(options: StrandedJobsOptions, nowMs: number): Promise<ReconcileJobsResult> {
  const { jobs, logger } = options;
  const before = new Date(nowMs - options.afterMs).toISOString();
  const candidates = new Map<string, JobRef>();
  try {
    for (const ref of await options.stoppedLately()) candidates.set(ref.jobId, ref);
  } catch (err) {
    // Temporal's visibility not answering now: the database's list below still runs.
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, "stopped runs not listed: Temporal's visibility did not answer");
  }
  for (const job of await jobs.unchangedBefore(['active'], before, STRANDED_SLICE)) candidates.set(job.id, { projectId: job.projectId, jobId: job.id });

  const result: ReconcileJobsResult = { looked: 0, failed: 0, jobs: [], cutShort: false };
  for (const ref of candidates.values()) {
    if (options.stopping?.()) {
      result.cutShort = true;
      break;
    }
    try {
      const job = await jobs.get(ref.projectId, ref.jobId);
      if (job?.status !== 'active') continue;
      result.looked += 1;
      const run = await options.stoppedRun(job);
      if (!run) continue;
      // A create writes its record while it starts the run: a young job's missing workflow may be on its way.
      if (run.status === 'NEVER_STARTED' && job.updatedAt >= before) continue;
      // A follow-up that started a new run meanwhile has written a newer revision: that run owns the job.
      if ((await jobs.get(job.projectId, job.id))?.revision !== job.revision) continue;
      const stopped = stoppedRunFailure(job, run, new Date(nowMs).toISOString());
      await options.record(stopped.job, [stopped.event]);
      const code = stopped.job.error?.code ?? '';
      result.failed += 1;
      if (result.jobs.length < NAMED_IN_RESULT) result.jobs.push({ jobId: job.id, code });
      logger.warn({ jobId: job.id, projectId: job.projectId, runId: run.runId, code }, 'job failed: its workflow run was stopped from outside');
    } catch (err) {
      // Temporal or the database not answering now: the next reconcile looks again.
      logger.warn({ err: err instanceof Error ? err.message : String(err), jobId: ref.jobId }, 'stranded job not reconciled');
    }
  }
  return result;
}
