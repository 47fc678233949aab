import type { Context } from 'koa';
import { consumeAgentLimit as consume, type Spent } from '../../core/limits/index.js';
import type { OrgLimits } from '../../core/tenants/index.js';
import { giveBackLimit, setRateLimitHeaders } from '../error-middleware.js';
import type { ApiServices } from '../services.js';

export { DEFAULT_AGENT_CREATES_PER_HOUR, DEFAULT_AGENT_MESSAGES_PER_HOUR } from '../../core/limits/index.js';

export type AgentLimitDeps = Pick<ApiServices, 'limiter'>;

/** Spends one create or one follow-up message of the project's hourly allowance, or throws RateLimitedError. */
export async function consumeAgentLimit(
  services: AgentLimitDeps,
  limits: OrgLimits | undefined,
  projectId: string,
  kind: 'create' | 'message',
): Promise<Spent> {
  return consume(services.limiter, limits, projectId, kind);
}

/**
 * Spends one create or one follow-up message (setting the `RateLimit-*` headers), then does the
 * work it pays for. When the work is refused (any error: the project being deleted, Temporal
 * down, an Idempotency-Key reused with another prompt, …), the unit is given back and the
 * headers taken off before the error is answered, so only a request Quire accepts spends.
 * Everything that can be checked before spending (the project, the body, the model, an archived
 * job) is checked by the caller first. `spends`, when given, says whether the work's result is
 * paid for here: a create that found the job a create of the same Idempotency-Key made at the
 * same moment is answered with it, as a retried create is, and gives its unit back as it spends none.
 */
export async function spendAgentLimit<T>(
  ctx: Context,
  services: AgentLimitDeps,
  limit: { limits: OrgLimits | undefined; projectId: string; kind: 'create' | 'message' },
  work: () => Promise<T>,
  spends?: (done: T) => boolean,
): Promise<T> {
  const spent = await consumeAgentLimit(services, limit.limits, limit.projectId, limit.kind);
  setRateLimitHeaders(ctx, spent);
  let done: T;
  try {
    done = await work();
  } catch (err) {
    await giveBackLimit(ctx, services.limiter, spent);
    throw err;
  }
  if (spends && !spends(done)) await giveBackLimit(ctx, services.limiter, spent);
  return done;
}
