import { consumeAgentLimit as consume, type LimitState } from '../../core/limits/index.js';
import type { OrgLimits } from '../../core/tenants/index.js';
import type { ApiServices } from '../services.js';

export { DEFAULT_AGENT_CREATES_PER_HOUR, DEFAULT_AGENT_MESSAGES_PER_HOUR } from '../../core/limits/index.js';

export type AgentLimitDeps = Pick<ApiServices, 'limiter'>;

/** Spends one create or one follow-up message of the project's hourly allowance, or throws RateLimitedError. */
export async function consumeAgentLimit(
  services: AgentLimitDeps,
  limits: OrgLimits | undefined,
  projectId: string,
  kind: 'create' | 'message',
): Promise<LimitState> {
  return consume(services.limiter, limits, projectId, kind);
}
