import { secondsSince } from '../../core/telemetry/index.js';
import { createEventPublisher, type EventPublisherDeps } from '../events/index.js';
import type { ActivityServices } from '../services.js';
import { openOrUpdatePullRequest, type PullRequestDeps } from './forge/index.js';
import { runAgentTurn, type TurnDeps } from './run-turn.js';
import type { AgentTurnInput, AgentTurnResult, PullRequestInput, PullRequestResult } from './types.js';

export type * from './types.js';
export { githubRepo, gitlabProject } from './forge/index.js';

/** What the agent engine's activities use: the model, the turn's and the pull request's slices. */
export type AgentActivityDeps = Pick<ActivityServices, 'model' | 'metrics'> & TurnDeps & PullRequestDeps & EventPublisherDeps;

/** The agent engine's activities: one turn of the tool loop, and opening or updating the pull request. */
export function createAgentActivities(services: AgentActivityDeps) {
  // The platform's model port (one connection pool, metered) for every turn this worker runs.
  const port = services.model.configured ? services.model.port : undefined;
  const publisher = createEventPublisher(services);
  return {
    async runAgentTurn(input: AgentTurnInput): Promise<AgentTurnResult> {
      const started = performance.now();
      let outcome = 'failed';
      try {
        const result = await runAgentTurn(services, port, publisher, input);
        outcome = result.stopReason;
        return result;
      } finally {
        services.metrics.agent.turnEnded(outcome, secondsSince(started));
      }
    },
    async openOrUpdatePullRequest(input: PullRequestInput): Promise<PullRequestResult> {
      const pr = await openOrUpdatePullRequest(services, input);
      services.metrics.agent.pullRequest(pr.created);
      return pr;
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
