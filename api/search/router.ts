import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { callerKind } from '../analytics/caller-kind.js';
import { recordAiView } from '../analytics/ai-views.js';
import { recorderOf } from '../analytics/recorder-of.js';
import { authOf, ownDomain, requireKey } from '../auth.js';
import { spendLimit } from '../error-middleware.js';
import { notFound } from '../http-error.js';
import { readIndexRun, startIndexRun } from '../index-run.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import type * as v from 'valibot';
import type { LimitCheck } from '../../core/limits/index.js';
import { IndexRunStatusSchema, PageBody, PageView, SearchBody } from './schema.js';
import { searchDomain } from './search-domain.js';

/** What the search routes use. */
export type SearchRouterDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'docIndex' | 'analytics' | 'temporal' | 'config'>;

/**
 * Search and page endpoints (assistant key, the assistant's per-organisation
 * limit) and the admin endpoints that start and watch an indexing run.
 */
export function searchRouter(services: SearchRouterDeps): Router {
  const { config, tenants, limiter, docIndex } = services;
  const router = new Router();
  const recorder = recorderOf(services);

  /** One counter with the assistant: the same name, subject and points. */
  const orgLimit = async (ctx: Context): Promise<LimitCheck[]> => {
    const { orgId } = authOf(ctx);
    const org = await tenants.getOrg(orgId);
    const points = org?.limits?.assistantPerOrgPerHour ?? 10000;
    return [{ name: 'assistant-org', subject: orgId, points, window: 'hour' }];
  };

  const assistantKey = requireKey(tenants, 'assistant');
  const adminKey = requireKey(tenants, 'admin');

  router.post('/discovery/v1/search/:domain', assistantKey, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const body = parseInput(SearchBody, ctx.request.body ?? {});
    // Refused after counting (the search engine down, the domain's collection gone, …): the search
    // spends nothing. A search that finds nothing is answered, and spent.
    const hits = await spendLimit(ctx, limiter, await orgLimit(ctx), () => searchDomain(docIndex, domain, body));
    // The id a front-end reports a click with (`POST …/search/{domain}/click`), for the search analytics' click-through rate.
    const searchId = `srch_${randomUUID()}`;
    const caller = callerKind(ctx, domain);
    recorder.record({ kind: 'search', record: { id: searchId, domainId: domain.id, at: recorder.now(), query: body.query, hits: hits.length, caller } });
    // A page on the domain's site searching is a reader (the widget's beacon counts the page); any other caller is a machine.
    if (caller !== 'browser') recordAiView(services, ctx, domain.id, '/search');
    ctx.set('X-Search-Id', searchId);
    ctx.body = hits;
  });

  router.post('/discovery/v1/page/:domain', assistantKey, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const body = parseInput(PageBody, ctx.request.body ?? {});
    // The search engine down, or no such page (or one hidden from the caller's groups): refused
    // after counting, the request spends nothing.
    const page = await spendLimit(ctx, limiter, await orgLimit(ctx), async () => {
      const found = await docIndex.getPage(domain.id, body.path, body.groups);
      if (!found) throw notFound(`page '${body.path}'`);
      return found;
    });
    if (callerKind(ctx, domain) !== 'browser') recordAiView(services, ctx, domain.id, page.path);
    const view: v.InferOutput<typeof PageView> = { path: page.path, content: page.content };
    ctx.body = view;
  });

  router.post('/v1/admin/domains/:domain/index', adminKey, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    ctx.status = 202;
    ctx.body = await startIndexRun(services.temporal, config.temporal.taskQueue, domain.id);
  });

  router.get('/v1/admin/domains/:domain/index', adminKey, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const run = await readIndexRun(services.temporal, domain.id);
    const status: v.InferOutput<typeof IndexRunStatusSchema> = {
      workflowId: run.workflowId,
      runId: run.runId,
      status: run.status,
      progress: run.progress ?? undefined,
      result: run.result && { ...run.result },
    };
    ctx.body = status;
  });

  return router;
}
