import { randomUUID } from 'node:crypto';
import { setImmediate as afterIo } from 'node:timers/promises';
import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { AGENT_JOB_WORKFLOW, messageRef, type AgentJobWorkflow, type JobMessage } from '../contracts/agent-job.js';
import type { Config } from '../config.js';
import { jobRunOptions, jobSettings, runInput } from './job-runs.js';
import { newJobId } from './job-id.js';
import { jobBranch, publicRepository, type JobRecord } from './job-record.js';
import { preambleMessage, type JobPreamble } from './job-preamble.js';
import type { JobStore } from './job-store.js';
import { isClosedProject } from './closed-project.js';
import { stoppedRunOf } from './stranded-jobs.js';

export interface JobRequest {
  projectId: string;
  repository: string;
  ref: string;
  model: string;
  prompt: string;
  draft: boolean;
  /**
   * A job id chosen by the caller, for a start that may be retried (an automation's activity):
   * the repeat then finds its own record, message and workflow instead of making a second job.
   */
  jobId?: string;
  /** The first message's id, chosen by the caller to name it in its answer (v1's `X-Message-Id`). */
  messageId?: string;
  /** The branch to push to (created from `ref` when missing); default `quire/<id>`. */
  branch?: string;
  /** Extra system text and earlier messages, kept in the job store beside the prompt. */
  preamble?: JobPreamble;
}

/** A new job: active, revision 0, with the repository stripped of credentials. */
export function newJobRecord(
  opts: { projectId: string; repository: string; ref: string; model: string; jobId?: string; branch?: string; draft?: boolean },
  now = new Date(),
): JobRecord {
  const at = now.toISOString();
  const id = opts.jobId ?? newJobId();
  return {
    id,
    projectId: opts.projectId,
    status: 'active',
    source: { repository: publicRepository(opts.repository, opts.projectId), ref: opts.ref },
    model: opts.model,
    prLink: null,
    createdAt: at,
    archivedAt: null,
    updatedAt: at,
    error: null,
    draft: opts.draft ?? false,
    revision: 0,
    branch: opts.branch ?? jobBranch(id),
    title: null,
    summary: null,
    turns: 0,
    filesChanged: [],
    stopReason: null,
    todos: [],
  };
}

/**
 * Whether the run a create started would wait for a record nobody writes, after the write failed.
 * A new id's run is this create's alone. A caller-chosen id's run may be an earlier attempt's: the
 * caller's retry writes the record it waits for, unless the project refuses jobs for good (being
 * deleted, or deleted) and no earlier attempt stored it (a stored job is its delete's to archive).
 */
async function waitsInVain(store: JobStore, request: JobRequest, job: JobRecord, reason: unknown): Promise<boolean> {
  if (!request.jobId) return true;
  if (!isClosedProject(reason)) return false;
  return (await store.get(job.projectId, job.id).catch(() => job)) === undefined;
}

/**
 * What a create answers with: the job, and whether this create made it. A create of a
 * caller-chosen id that found the job's record already written (a retry, or a create of the same
 * id at the same moment that got there first) did not: its run joined the one that did.
 */
export interface CreatedJob {
  job: JobRecord;
  made: boolean;
}

/**
 * Creates a job: its record and first message go to the database while its first run starts, so
 * the create answers after the slower of the two rather than their sum, and every API replica
 * lists and reads the job as soon as the create answers, with or without a worker. The run's
 * first load waits (bounded) for a record not yet committed. From then on only the job's workflow
 * writes its state. Idempotent by a caller-chosen job id: a repeat finds its own record and run.
 * A start that fails forgets the job again; a write that fails stops the run it started (for a
 * caller-chosen id, only once its project refuses jobs: see waitsInVain).
 */
export async function createJob(deps: { temporal: Client; store: JobStore; config: Config }, request: JobRequest): Promise<CreatedJob> {
  const job = newJobRecord(request);
  // A caller-chosen job id names its first message too, so a repeated start stores it once.
  const first: JobMessage = { id: request.messageId ?? (request.jobId ? `first:${request.jobId}` : randomUUID()), prompt: request.prompt };
  const messages = request.preamble ? [first, preambleMessage(request.preamble)] : [first];
  const ref = messageRef(first);
  const input = runInput(job, jobSettings(deps.config, request.draft), [ref]);
  const starting = deps.temporal.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, {
    ...jobRunOptions(job, input, { summary: ref.summary, status: 'active' }, deps.config.temporal.taskQueue),
    // A repeat of a caller-chosen id joins the run that is open; a later one finds its message handled.
    ...(request.jobId ? { workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING } : {}),
  });
  // The record and its messages together: a failed write leaves no job without its prompt. It
  // waits for the event loop's next check phase, where the start's request is sent (HTTP/2 flushes
  // there): an embedded database's write holds the thread, and would otherwise run before the
  // request leaves rather than while Temporal handles it.
  const writing = afterIo().then(() => deps.store.create(job, messages));
  const [started, written] = await Promise.allSettled([starting, writing]);
  if (written.status === 'rejected') {
    if (started.status === 'fulfilled' && (await waitsInVain(deps.store, request, job, written.reason))) {
      await started.value.terminate(isClosedProject(written.reason) ? 'its project is being deleted' : 'the job record could not be written').catch(() => undefined);
    }
    throw written.reason;
  }
  if (started.status === 'rejected') {
    if (!request.jobId) await deps.store.remove(job.projectId, job.id).catch(() => undefined);
    throw started.reason;
  }
  if (!request.jobId) return { job, made: true };
  return { job: (await deps.store.get(job.projectId, job.id)) ?? job, made: written.value };
}

/**
 * Whether an active job's workflow was never started: a create that wrote the record of a
 * caller-chosen id and then could not reach Temporal left it so, for its retry to start.
 */
export async function neverStarted(temporal: Client, job: JobRecord): Promise<boolean> {
  return job.status === 'active' && (await stoppedRunOf(temporal, job))?.status === 'NEVER_STARTED';
}
