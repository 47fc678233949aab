import {
  isGrpcServiceError,
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  WorkflowNotFoundError,
  type Client,
  type WorkflowStartOptions,
} from '@temporalio/client';
import {
  AGENT_JOB_WORKFLOW,
  agentJobWorkflowId,
  archiveUpdate,
  messageRef,
  sendMessageUpdate,
  type AgentJobInput,
  type AgentJobWorkflow,
  type JobMessage,
  type JobSettings,
  type MessageRef,
} from '../contracts/agent-job.js';
import { JOB_STATUS, PROJECT_ID } from '../contracts/search-attributes.js';
import type { Config } from '../config.js';
import type { JobRecord, JobStatus } from './job-record.js';

/** Margin over the agent's own time budget before Temporal times a turn out. */
const TURN_TIMEOUT_MARGIN_SECONDS = 120;

/** The settings every run of a job gets, from the configuration and the job's own choice. */
export function jobSettings(config: Config, draft: boolean): JobSettings {
  return {
    draft,
    turnTimeoutSeconds: config.agent.maxSeconds + TURN_TIMEOUT_MARGIN_SECONDS,
    heartbeatSeconds: config.agent.heartbeatSeconds,
  };
}

/** A run's input: the job, its settings, and the messages it is started with. */
export function runInput(job: JobRecord, settings: JobSettings, pending: MessageRef[] = []): AgentJobInput {
  return { jobId: job.id, projectId: job.projectId, settings, pending };
}

/**
 * How a run of a job's workflow starts: under the job's id, with the status and project to
 * filter on, a summary naming the request of the turn it runs and details saying what the job is.
 */
export function jobRunOptions(
  job: JobRecord,
  input: AgentJobInput,
  run: { summary: string; status: JobStatus },
  taskQueue: string,
): WorkflowStartOptions<AgentJobWorkflow> {
  return {
    taskQueue,
    workflowId: agentJobWorkflowId(job.id),
    args: [input],
    typedSearchAttributes: [
      { key: PROJECT_ID, value: job.projectId },
      { key: JOB_STATUS, value: run.status },
    ],
    staticSummary: run.summary,
    staticDetails: `project: ${job.projectId}\nrepository: ${job.source.repository}\nref: ${job.source.ref}\nmodel: ${job.model || '(none configured)'}`,
  };
}

export interface JobRunDeps {
  temporal: Client;
  config: Config;
}

/** A run that starts unless one is open (update-with-start): the open run takes the update instead. */
function nextRun(deps: JobRunDeps, job: JobRecord, summary: string, status: JobStatus): WithStartWorkflowOperation<AgentJobWorkflow> {
  const input = runInput(job, jobSettings(deps.config, job.draft));
  return new WithStartWorkflowOperation<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, {
    ...jobRunOptions(job, input, { summary, status }, deps.config.temporal.taskQueue),
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
}

/** gRPC NOT_FOUND: the run the update was admitted to completed before it took it. */
const NOT_FOUND = 5;

/**
 * Runs an update-with-start once more when the open run it reached ended before handling it (a
 * run that was finishing its last turn): the second attempt starts the next run.
 */
async function onOpenOrNextRun<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const closed = err instanceof WorkflowNotFoundError || (isGrpcServiceError(err) && err.code === NOT_FOUND);
    if (!closed) throw err;
    return send();
  }
}

/**
 * Hands a stored message to the job's workflow: the open run queues it behind its turn, or a new
 * run starts for it. Answers the job as the workflow recorded it (active).
 */
export function sendJobMessage(deps: JobRunDeps, job: JobRecord, message: JobMessage): Promise<JobRecord> {
  const ref = messageRef(message);
  return onOpenOrNextRun(() =>
    deps.temporal.workflow.executeUpdateWithStart(sendMessageUpdate, {
      args: [ref],
      updateId: message.id,
      startWorkflowOperation: nextRun(deps, job, ref.summary, 'active'),
    }),
  );
}

/** Archives a job through its workflow (a run that is open stops its turn); answers the job as recorded. */
export function archiveJobRun(deps: JobRunDeps, job: JobRecord): Promise<JobRecord> {
  return onOpenOrNextRun(() =>
    deps.temporal.workflow.executeUpdateWithStart(archiveUpdate, {
      updateId: `archive:${job.id}`,
      startWorkflowOperation: nextRun(deps, job, 'archive', job.status),
    }),
  );
}
