import type { ActivityServices } from '../services.js';
import type { AgentTurnInput, AgentTurnResult, PullRequestInput, PullRequestResult } from './types.js';

export type * from './types.js';
export { AGENT_ERROR, AGENT_NON_RETRYABLE } from './errors.js';

/** The agent engine's activities: one turn of the tool loop, and opening or updating the pull request. */
export function createAgentActivities(services: ActivityServices) {
  return {
    async runAgentTurn(input: AgentTurnInput): Promise<AgentTurnResult> {
      void services;
      throw new Error(`runAgentTurn not implemented yet (${input.jobId})`);
    },
    async openOrUpdatePullRequest(input: PullRequestInput): Promise<PullRequestResult> {
      throw new Error(`openOrUpdatePullRequest not implemented yet (${input.jobId})`);
    },
  };
}
