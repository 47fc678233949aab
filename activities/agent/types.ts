/** A prompt the job received; only prompts travel through workflow history, never file contents. */
export interface TurnMessage {
  id: string;
  prompt: string;
}

/** What the workflow hands the agent for one turn. */
export interface AgentTurnInput {
  jobId: string;
  projectId: string;
  model: string;
  /** 'quire/<jobId>' */
  branch: string;
  /** 1 for the first turn, +1 per turn. */
  turn: number;
  /** The pending messages this turn handles. */
  messages: TurnMessage[];
}

/** `already_pushed`: an earlier attempt of the same turn pushed its commit; nothing was re-run. */
export type AgentStopReason = 'finish' | 'no_tool_calls' | 'max_steps' | 'max_tokens' | 'max_time' | 'already_pushed';

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
  prompts: string[];
  filesChanged: string[];
  validationErrors: string[];
  /** How the turn ended; a spent bound is said in the description. Absent in runs recorded before it existed. */
  stopReason?: AgentStopReason;
  draft: boolean;
}

export interface PullRequestResult {
  url: string;
  number: number;
  created: boolean;
}
