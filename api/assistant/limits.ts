import type { LimitCheck } from '../../core/limits/index.js';
import type { OrgLimits } from '../../core/tenants/index.js';

export const ASSISTANT_DEFAULT_LIMIT = 10_000;

/**
 * The three assistant limits of API.md, taken together in one `consume` so a
 * refused request spends none. `assistant-org` is shared with the search
 * endpoints: one organisation, one hourly budget.
 */
export function assistantLimits(who: { keyId: string; orgId: string; ip: string }, limits: OrgLimits | undefined): LimitCheck[] {
  return [
    { name: 'assistant-key', subject: who.keyId, window: 'month', points: limits?.assistantPerKeyPerMonth ?? ASSISTANT_DEFAULT_LIMIT },
    { name: 'assistant-org', subject: who.orgId, window: 'hour', points: limits?.assistantPerOrgPerHour ?? ASSISTANT_DEFAULT_LIMIT },
    // Per organisation: its limit on its own readers, whom other organisations' traffic from one address (an office, a NAT) does not spend.
    { name: 'assistant-ip', subject: `${who.orgId}:${who.ip}`, window: 'day', points: limits?.assistantPerIpPerDay ?? ASSISTANT_DEFAULT_LIMIT },
  ];
}
