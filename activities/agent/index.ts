import { createModelPort } from '../../core/model/index.js';
import { createEventPublisher } from '../events/index.js';
import type { ActivityServices } from '../services.js';
import { openOrUpdatePullRequest } from './forge/index.js';
import { runAgentTurn } from './run-turn.js';
import type { AgentTurnInput, AgentTurnResult, PullRequestInput, PullRequestResult } from './types.js';

export type * from './types.js';
export { gitlabProject } from './forge/index.js';

/** The agent engine's activities: one turn of the tool loop, and opening or updating the pull request. */
export function createAgentActivities(services: ActivityServices) {
  // One model port (one connection pool) for every turn this worker runs.
  const port = services.config.model ? createModelPort(services.config.model) : undefined;
  const publisher = createEventPublisher(services);
  return {
    runAgentTurn: (input: AgentTurnInput): Promise<AgentTurnResult> => runAgentTurn(services, port, publisher, input),
    openOrUpdatePullRequest: (input: PullRequestInput): Promise<PullRequestResult> => openOrUpdatePullRequest(services, input),
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
