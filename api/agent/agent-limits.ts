import type { LimitState } from '../../core/limits/index.js';
import type { OrgLimits } from '../../core/tenants/index.js';
import type { ApiServices } from '../services.js';

export const DEFAULT_AGENT_CREATES_PER_HOUR = 100;
export const DEFAULT_AGENT_MESSAGES_PER_HOUR = 100;

/** Spends one create or one follow-up message of the project's hourly allowance, or throws RateLimitedError. */
export async function consumeAgentLimit(
  services: ApiServices,
  limits: OrgLimits | undefined,
  projectId: string,
  kind: 'create' | 'message',
): Promise<LimitState> {
  const points =
    kind === 'create'
      ? (limits?.agentCreatesPerHour ?? DEFAULT_AGENT_CREATES_PER_HOUR)
      : (limits?.agentMessagesPerHour ?? DEFAULT_AGENT_MESSAGES_PER_HOUR);
  return services.limiter.consume([{ name: `agent-${kind}`, subject: projectId, points, window: 'hour' }]);
}
