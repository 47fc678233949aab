import type { MessageRef } from '../../core/contracts/agent-job.js';

/** What the workflow hands the agent for one turn. */
export interface AgentTurnInput {
  jobId: string;
  projectId: string;
  model: string;
  /** 'quire/<jobId>' */
  branch: string;
  /** 1 for the first turn, +1 per turn. */
  turn: number;
  /** The pending messages this turn handles; their prompts are in the job store. */
  messages: MessageRef[];
}

/** `already_pushed`: an earlier attempt of the same turn pushed its commit; nothing was re-run. */
export const AGENT_STOP_REASONS = ['finish', 'no_tool_calls', 'max_steps', 'max_tokens', 'max_time', 'already_pushed'] as const;
export type AgentStopReason = (typeof AGENT_STOP_REASONS)[number];

/** Outcome of one turn; small on purpose because it lands in workflow history. */
export interface AgentTurnResult {
  /** false: no commit, nothing pushed. */
  changed: boolean;
  commitSha: string | null;
  /** Paths relative to the docs root. */
  filesChanged: string[];
  /** From the model's finish tool, or a fallback from the first prompt line. */
  title: string;
  summary: string;
  /** Errors remaining after the fix rounds. */
  validationErrors: string[];
  stopReason: AgentStopReason;
  steps: number;
}

export interface PullRequestInput {
  jobId: string;
  projectId: string;
  branch: string;
  turn: number;
  title: string;
  summary: string;
  /** The latest messages the job handled, quoted from the job store. */
  messageIds: string[];
  filesChanged: string[];
  validationErrors: string[];
  /** How the turn ended; a spent bound is said in the description. Absent in runs recorded before it existed. */
  stopReason?: AgentStopReason;
  draft: boolean;
}

/** What a forge gets: the activity's input with the prompts of `messageIds`, read from the job store. */
export interface PullRequestRequest extends PullRequestInput {
  prompts: string[];
}

export interface PullRequestResult {
  url: string;
  number: number;
  created: boolean;
}
