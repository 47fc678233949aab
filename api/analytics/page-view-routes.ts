import type Router from '@koa/router';
import type { Context } from 'koa';
import { ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import { assistantLimits } from '../assistant/index.js';
import { spendLimit } from '../error-middleware.js';
import { refuseUnlistedOrigin } from '../cors.js';
import { badRequest, HttpError, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { refuseNul } from '../nul-guard.js';
import { parseInput } from '../validation.js';
import { recorderOf } from './recorder-of.js';
import { PageViewBody } from './schemas.js';

/** The beacon's route; `navigator.sendBeacon` sends its JSON as `text/plain` (no preflight), which app.ts lets through here only. */
export const PAGE_VIEW_ROUTE = '/discovery/v1/analytics/:domain/page-view';
export const PLAIN_TEXT_JSON_PATH = /^\/discovery\/v1\/analytics\/[^/]+\/page-view$/;
/** A beacon is a key and a path: anything larger is not one. */
const MAX_BEACON_BYTES = 2048;

async function beaconBody(ctx: Context): Promise<unknown> {
  if (!ctx.is('text/plain')) return ctx.request.body ?? {};
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_BEACON_BYTES) throw new HttpError(413, 'payload_too_large', `a page view is at most ${MAX_BEACON_BYTES} bytes`);
    chunks.push(bytes);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('invalid body: must be a JSON object', [{ path: 'body', message: 'must be a JSON object' }]);
  }
  refuseNul(parsed);
  return parsed;
}

export type PageViewRoutesDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'analytics'>;

/**
 * The widget's page-view beacon: one per page view, no cookie read or set, nothing personal
 * kept (the address and user agent only make the day's visitor hash). Authenticated as the
 * widget is: the domain's public assistant key, and an `Origin` the domain allows (refused once
 * the key is read, as `requireKey` refuses it); a request without `Origin` is not a page's.
 */
export function pageViewRoutes(router: Router, services: PageViewRoutesDeps): void {
  const { tenants, limiter } = services;
  const recorder = recorderOf(services);

  router.post(PAGE_VIEW_ROUTE, async (ctx) => {
    if (!ctx.get('Origin')) throw new ForbiddenError('page views are reported by pages: an Origin header is required');
    const body = parseInput(PageViewBody, await beaconBody(ctx));
    const key = await tenants.authenticate(body.key);
    if (!key) throw new UnauthorizedError('unknown or revoked API key');
    if (key.kind !== 'assistant') throw new ForbiddenError('a page view is reported with the domain’s assistant key (quire_dsc_…), never an admin key');
    refuseUnlistedOrigin(ctx, key.orgId);
    const domainId = String(ctx.params.domain ?? '');
    const domain = await tenants.getDomain(domainId);
    if (!domain || domain.orgId !== key.orgId) throw notFound(`domain '${domainId}'`);
    const org = await tenants.getOrg(key.orgId);
    // Counted against the reader's address, like llms.txt: a page view spends no key or organisation budget.
    const perIp = assistantLimits({ keyId: key.id, orgId: key.orgId, ip: ctx.ip }, org?.limits).filter((c) => c.name === 'assistant-ip');
    // Everything is checked before counting; recording never waits or throws, yet should it fail the view spends nothing.
    await spendLimit(ctx, limiter, perIp, async () => {
      recorder.recordView({ domainId: domain.id, path: body.path, traffic: 'human', ip: ctx.ip, userAgent: ctx.get('User-Agent') });
    });
    ctx.status = 204;
  });
}
