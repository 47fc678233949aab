import type { Context } from 'koa';
import type { CallerKind } from '../../core/analytics/index.js';
import type { Domain } from '../../core/tenants/index.js';

/**
 * Who is asking: `browser` when the request comes from an origin the domain
 * lists (CORS has let it through), `server` without an `Origin` header, and
 * `other` for an origin the domain does not list (a domain without a list
 * accepts any origin, so such a caller is not one the team set up).
 */
export function callerKind(ctx: Context, domain: Pick<Domain, 'allowedOrigins'>): CallerKind {
  const origin = ctx.get('Origin');
  if (!origin) return 'server';
  return domain.allowedOrigins?.includes(origin) ? 'browser' : 'other';
}
