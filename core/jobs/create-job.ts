import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import {
  AGENT_JOB_WORKFLOW,
  agentJobWorkflowId,
  messageRef,
  type AgentJobInput,
  type AgentJobWorkflow,
  type JobMessage,
  type JobSettings,
  type MessageRef,
} from '../contracts/agent-job.js';
import { JOB_STATUS, PROJECT_ID } from '../contracts/search-attributes.js';
import type { Config } from '../config.js';
import { newJobId } from './job-id.js';
import { jobBranch, publicRepository, type JobRecord } from './job-record.js';
import { putJobPreamble, type JobPreamble } from './job-preamble.js';
import type { JobStore } from './job-store.js';

/** Margin over the agent's own time budget before Temporal times a turn out. */
const TURN_TIMEOUT_MARGIN_SECONDS = 120;

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

/** The settings a new job keeps for its whole life, from the configuration. */
export function jobSettings(config: Config, draft: boolean): JobSettings {
  return {
    draft,
    idleArchiveDays: config.retention.jobIdleArchiveDays,
    turnTimeoutSeconds: config.agent.maxSeconds + TURN_TIMEOUT_MARGIN_SECONDS,
    heartbeatSeconds: config.agent.heartbeatSeconds,
  };
}

/** A new job: active, revision 0, with the repository stripped of credentials. */
export function newJobRecord(
  opts: { projectId: string; repository: string; ref: string; model: string; jobId?: string; branch?: string },
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

/** The first run's input: the job, its first message pending, nothing handled yet. */
export function firstRunInput(job: JobRecord, first: MessageRef, settings: JobSettings): AgentJobInput {
  return { job, settings, pending: [first], seenMessageIds: [first.id], turn: 0, handledMessageIds: [], filesChanged: [] };
}

/**
 * How a job's workflow is started: the derived id, the memo `GET` reads without a worker, the
 * search attributes and the summary and details operators see in the Temporal UI.
 */
export function jobStartOptions(input: AgentJobInput, taskQueue: string): WorkflowStartOptions<AgentJobWorkflow> {
  const { job } = input;
  return {
    taskQueue,
    workflowId: agentJobWorkflowId(job.id),
    args: [input],
    memo: { job },
    typedSearchAttributes: [
      { key: PROJECT_ID, value: job.projectId },
      { key: JOB_STATUS, value: job.status },
    ],
    staticSummary: input.pending[0]?.summary ?? '',
    staticDetails: `project: ${job.projectId}\nrepository: ${job.source.repository}\nref: ${job.source.ref}\nmodel: ${job.model || '(none configured)'}`,
  };
}

/**
 * Creates a job: its record and first message go to the job store before the workflow starts, so
 * every API replica lists and reads the job as soon as the create answers (no replica keeps state
 * of its own). A start that fails forgets them again.
 */
export async function createJob(deps: { temporal: Client; store: JobStore; config: Config }, request: JobRequest): Promise<JobRecord> {
  const job = newJobRecord(request);
  // A caller-chosen job id names its first message too, so a repeated start stores it once.
  const first: JobMessage = { id: request.messageId ?? (request.jobId ? `first:${request.jobId}` : randomUUID()), prompt: request.prompt };
  await Promise.all([
    deps.store.create(job),
    deps.store.putMessage(job.projectId, job.id, first),
    ...(request.preamble ? [putJobPreamble(deps.store, job.projectId, job.id, request.preamble)] : []),
  ]);
  const input = firstRunInput(job, messageRef(first), jobSettings(deps.config, request.draft));
  try {
    await deps.temporal.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, jobStartOptions(input, deps.config.temporal.taskQueue));
  } catch (err) {
    // The workflow of a caller-chosen id already runs: this is a repeat of a start that succeeded.
    if (request.jobId && err instanceof WorkflowExecutionAlreadyStartedError) return (await deps.store.get(job.projectId, job.id)) ?? job;
    await deps.store.remove(job.projectId, job.id).catch(() => undefined);
    throw err;
  }
  return job;
}
