import Router from '@koa/router';
import type { Context } from 'koa';
import type { PageListing } from '../../core/retrieval/index.js';
import type { Domain } from '../../core/tenants/index.js';
import { recordAiView } from '../analytics/ai-views.js';
import { assistantLimits } from '../assistant/index.js';
import { spendLimit } from '../error-middleware.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { LlmsCache } from './llms-cache.js';
import { renderLlmsFullTxt, renderLlmsTxt, siteOf } from './render.js';

type Variant = 'llms' | 'llms-full';

/**
 * If-None-Match by weak comparison (RFC 9110 §13.1.2). Not Koa's `ctx.fresh`:
 * it ignores the header whenever the request says `Cache-Control: no-cache`,
 * which fetch() adds to every conditional request.
 */
function notModified(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Pages anyone may read: a page with access groups is for its groups' members only. */
const isPublic = (page: PageListing) => page.groups.length === 0;

/** What the llms.txt routes use. */
export type LlmsRouterDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'docIndex' | 'analytics'>;

/**
 * llms.txt and llms-full.txt of each domain, derived from what its index holds
 * (so they follow the indexer's searchable-page rules) and cached until the
 * next re-index. Public like a site's own llms.txt: no key, only pages without
 * access groups, counted against the owning organisation's per-IP limit.
 */
export function llmsRouter(services: LlmsRouterDeps): Router {
  const { tenants, limiter, docIndex } = services;
  const cache = new LlmsCache();
  const router = new Router();

  const render = async (domain: Domain, variant: Variant): Promise<string> => {
    const pages = (await docIndex.listPages(domain.id, { content: variant === 'llms-full' })).filter(isPublic);
    const site = siteOf(domain.baseUrl, pages);
    return variant === 'llms' ? renderLlmsTxt(site, pages) : renderLlmsFullTxt(site, pages);
  };

  const serve = (variant: Variant) => async (ctx: Context) => {
    const domainId = String(ctx.params.domain ?? '');
    const domain = await tenants.getDomain(domainId);
    if (!domain) throw notFound(`domain '${domainId}'`);
    const org = await tenants.getOrg(domain.orgId);
    // No key, so no key or organisation budget to spend: only the caller's address is counted.
    const perIp = assistantLimits({ keyId: '', orgId: domain.orgId, ip: ctx.ip }, org?.limits).filter((c) => c.name === 'assistant-ip');
    // Refused after counting (the search engine down): the request spends nothing, and is no AI view.
    const file = await spendLimit(ctx, limiter, perIp, async () => {
      const generation = await docIndex.generation(domain.id);
      const key = `${domain.id}\0${variant}\0${domain.baseUrl}`;
      return cache.get(key, generation, () => render(domain, variant));
    });
    recordAiView(services, ctx, domain.id, variant === 'llms' ? '/llms.txt' : '/llms-full.txt');
    ctx.set('ETag', file.etag);
    ctx.set('Cache-Control', 'public, max-age=300');
    if (notModified(ctx.get('If-None-Match'), file.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = file.text;
  };

  router.get('/discovery/v1/llms/:domain.txt', serve('llms'));
  // The folder form mirrors a site root, for tools that append /llms.txt or /llms-full.txt to a base URL.
  router.get('/discovery/v1/llms/:domain/llms.txt', serve('llms'));
  router.get('/discovery/v1/llms/:domain/llms-full.txt', serve('llms-full'));
  return router;
}
