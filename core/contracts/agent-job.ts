/**
 * The agent-job workflow's contract: what the API, the CLI, the worker and the
 * workflow agree on (workflow type and id, input and result, updates and the
 * failure types). Imports only `@temporalio/common` (through `define.ts`) and
 * types, so a caller never loads workflow or activity code.
 *
 * Each turn of a job is one workflow run under the job's id: the run ends Completed when the
 * turn succeeded and Failed (the job's error as its failure) when it failed; a follow-up message
 * or an archive starts the next run under the same id (update-with-start).
 */
import type { JobRecord } from '../jobs/job-record.js';
import { defineUpdate } from './define.js';

export const AGENT_JOB_WORKFLOW = 'agentJobWorkflow';
export type AgentJobWorkflow = (input: AgentJobInput) => Promise<JobRecord>;

/**
 * One workflow per job, under the job's own id (`job_…` already says what it is), so the API
 * finds it without a lookup and an operator reads the same id in the Temporal UI and the API.
 */
export function agentJobWorkflowId(jobId: string): string {
  return jobId;
}

/** The job an agent job's workflow id names (the inverse of `agentJobWorkflowId`). */
export function jobIdOfWorkflow(workflowId: string): string {
  return workflowId;
}

/** A prompt sent to a job. Kept in the job store: its text never enters workflow history. */
export interface JobMessage {
  id: string;
  prompt: string;
}

/** What the workflow knows of a message: its id, and a line for the Temporal UI. */
export interface MessageRef {
  id: string;
  summary: string;
}

const SUMMARY_CHARS = 80;

/** The reference the workflow gets for a message the caller has stored. */
export function messageRef(message: JobMessage): MessageRef {
  const line = message.prompt.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return { id: message.id, summary: line.slice(0, SUMMARY_CHARS) };
}

/** The settings a job keeps for its whole life, chosen by the API at create time. */
export interface JobSettings {
  draft: boolean;
  /** Upper bound of one agent turn, from config.agent.maxSeconds plus a margin. */
  turnTimeoutSeconds: number;
  /** A turn silent this long is retried on another worker (config.agent.heartbeatSeconds). */
  heartbeatSeconds: number;
}

/**
 * What one run of a job's workflow starts from. A run loads the job's state from Quire's
 * database (the only record of it), so the input names the job and its settings only, plus the
 * messages the run is to handle (ids and summaries: prompts stay in the database).
 */
export interface AgentJobInput {
  jobId: string;
  projectId: string;
  settings: JobSettings;
  /** Messages the run handles; empty when an update brings them (update-with-start). */
  pending: MessageRef[];
}

/** A job as a new run loads it from the database. */
export interface LoadedJob {
  job: JobRecord;
  /** The job's latest turn (0 before the first). */
  turn: number;
  /** Ids of the messages its turns have taken, oldest first (the latest ones): a repeat is not run again. */
  handledMessageIds: string[];
}

/**
 * A follow-up the caller has stored; accepted (the job recorded active) before the update returns.
 * Sent with update-with-start: a run that is open takes it, otherwise a new run starts for it.
 */
export const sendMessageUpdate = defineUpdate<JobRecord, [MessageRef]>('sendMessage');
/** Archives the job, stopping a running turn; idempotent. Returns the job as recorded. */
export const archiveUpdate = defineUpdate<JobRecord>('archive');

/** Error type the message update is rejected with when the job is archived (the API answers 409). */
export const JOB_ARCHIVED = 'JobArchived';
/** Error type of a run whose job is not in the database (deleted by retention, or its create never wrote it). */
export const JOB_NOT_FOUND = 'JobNotFound';

/**
 * Error types the agent activities throw as ApplicationFailure types. The workflow passes
 * AGENT_NON_RETRYABLE as nonRetryableErrorTypes; everything else is retried by Temporal.
 * A failed job's `error.code` is the snake_case form of its type.
 */
export const AGENT_ERROR = {
  repositoryNotFound: 'RepositoryNotFound',
  badCredentials: 'BadCredentials',
  modelRequestInvalid: 'ModelRequestInvalid',
  modelNotConfigured: 'ModelNotConfigured',
  projectNotFound: 'ProjectNotFound',
  forgeMisconfigured: 'ForgeMisconfigured',
  messageMissing: 'MessageMissing',
  modelUnavailable: 'ModelUnavailable',
  forgeUnavailable: 'ForgeUnavailable',
  gitFailed: 'GitFailed',
  cancelled: 'Cancelled',
  docsFolderOutside: 'DocsFolderOutside',
} as const;

export const AGENT_NON_RETRYABLE: readonly string[] = [
  AGENT_ERROR.repositoryNotFound,
  AGENT_ERROR.badCredentials,
  AGENT_ERROR.modelRequestInvalid,
  AGENT_ERROR.modelNotConfigured,
  AGENT_ERROR.projectNotFound,
  AGENT_ERROR.forgeMisconfigured,
  AGENT_ERROR.messageMissing,
  AGENT_ERROR.docsFolderOutside,
];
