import type { OrgLimits } from '../tenants/types.js';
import type { Limiter, Spent } from './limiter.js';

export const DEFAULT_AGENT_CREATES_PER_HOUR = 100;
export const DEFAULT_AGENT_MESSAGES_PER_HOUR = 100;

/**
 * Spends one create or one follow-up message of the project's hourly allowance, or throws
 * RateLimitedError. The API and the worker (an automation starting a job) spend from the same counters.
 */
export async function consumeAgentLimit(
  limiter: Limiter,
  limits: OrgLimits | undefined,
  projectId: string,
  kind: 'create' | 'message',
): Promise<Spent> {
  const points =
    kind === 'create'
      ? (limits?.agentCreatesPerHour ?? DEFAULT_AGENT_CREATES_PER_HOUR)
      : (limits?.agentMessagesPerHour ?? DEFAULT_AGENT_MESSAGES_PER_HOUR);
  return limiter.consume([{ name: `agent-${kind}`, subject: projectId, points, window: 'hour' }]);
}
