/**
 * The agent-job workflow's contract: what the API, the CLI, the worker and the
 * workflow agree on (workflow type and id, input and result, updates, signals,
 * the query and the failure types). Imports only `@temporalio/common` (through
 * `define.ts`) and types, so a caller never loads workflow or activity code.
 */
import type { JobRecord } from '../jobs/job-record.js';
import { defineQuery, defineSignal, defineUpdate } from './define.js';

export const AGENT_JOB_WORKFLOW = 'agentJobWorkflow';
export type AgentJobWorkflow = (input: AgentJobInput) => Promise<JobRecord>;

/**
 * One workflow per job, under the job's own id (`job_…` already says what it is), so the API
 * finds it without a lookup and an operator reads the same id in the Temporal UI and the API.
 */
export function agentJobWorkflowId(jobId: string): string {
  return jobId;
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

/** A message's shape, for values from outside the type system (stored JSON, a signal typed in the UI). */
export function isJobMessage(value: unknown): value is JobMessage {
  return (
    typeof value === 'object' && value !== null &&
    'id' in value && typeof value.id === 'string' && value.id !== '' &&
    'prompt' in value && typeof value.prompt === 'string'
  );
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
  /** Idle days before the job archives itself (config.retention.jobIdleArchiveDays). */
  idleArchiveDays: number;
  /** Upper bound of one agent turn, from config.agent.maxSeconds plus a margin. */
  turnTimeoutSeconds: number;
  /** A turn silent this long is retried on another worker (config.agent.heartbeatSeconds). */
  heartbeatSeconds: number;
}

/** Everything a run needs; continue-as-new carries the same shape forward. */
export interface AgentJobInput {
  job: JobRecord;
  settings: JobSettings;
  /** Messages accepted but not yet handled by a turn. */
  pending: MessageRef[];
  /** Message ids already accepted: Temporal de-duplicates updates only within a run. */
  seenMessageIds: string[];
  turn: number;
  /** Ids of the messages handled so far (the latest ones), quoted in the pull-request description. */
  handledMessageIds: string[];
  /** Files changed across turns, for the pull-request description. */
  filesChanged: string[];
}

/** A follow-up the caller has stored; accepted (and the job marked active) before the update returns. */
export const sendMessageUpdate = defineUpdate<JobRecord, [MessageRef]>('sendMessage');
/** Archives the job, cancelling a running turn; idempotent. */
export const archiveUpdate = defineUpdate<JobRecord>('archive');
/**
 * The same two as signals, for operators and tools that cannot wait on an update (the Temporal UI,
 * `temporal workflow signal`): the message carries its prompt, which the workflow stores. A message
 * signalled to an archived job is dropped with a warning, since a signal cannot be refused.
 */
export const messageSignal = defineSignal<[JobMessage]>('message');
export const archiveSignal = defineSignal('archiveJob');
export const jobStateQuery = defineQuery<JobRecord>('jobState');

/** Error type the message update is rejected with when the job is archived (the API answers 409). */
export const JOB_ARCHIVED = 'JobArchived';

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
} as const;

export const AGENT_NON_RETRYABLE: readonly string[] = [
  AGENT_ERROR.repositoryNotFound,
  AGENT_ERROR.badCredentials,
  AGENT_ERROR.modelRequestInvalid,
  AGENT_ERROR.modelNotConfigured,
  AGENT_ERROR.projectNotFound,
  AGENT_ERROR.forgeMisconfigured,
  AGENT_ERROR.messageMissing,
];
