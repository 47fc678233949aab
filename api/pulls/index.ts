import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { branchDiff, canViewWithToken, PullStore } from '../../core/forge/index.js';
import { requireKey } from '../auth.js';
import type { AuthState } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { PULL_PAGE_HEADERS, renderPullPage } from './pull-page.js';

/**
 * The embedded forge's pull requests: GET /forge/{projectId}/pulls/{number},
 * with the view token of the link (`?token=`, that one pull request only) or
 * an admin key of the project's organisation. JSON by default, HTML for
 * browsers; the diff is computed from git at read time.
 */
export function pullsRouter(services: ApiServices): Router {
  const router = new Router();
  const store = new PullStore(services.database);
  const adminKey = requireKey(services.tenants, 'admin');
  // The link's token stands in for the key; without one, the admin key is required as before.
  const keyUnlessToken = (ctx: Context, next: Next) => (typeof ctx.query.token === 'string' ? next() : adminKey(ctx, next));

  router.get('/forge/:projectId/pulls/:number', keyUnlessToken, async (ctx) => {
    const auth = ctx.state.auth as AuthState | undefined;
    const project = await services.tenants.getProject(ctx.params.projectId ?? '');
    // Another organisation's project, a wrong token or a missing pull request all look the same.
    if (!project || (auth && project.orgId !== auth.orgId)) throw notFound('pull request');
    const number = Number(ctx.params.number);
    const pull = Number.isInteger(number) ? await store.get(project.id, number) : undefined;
    if (!pull) throw notFound('pull request');
    if (!auth && !canViewWithToken(pull, String(ctx.query.token))) throw notFound('pull request');
    const diff = await branchDiff(project.repository, pull.base, pull.branch).catch(() => '');
    ctx.set(PULL_PAGE_HEADERS);
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.type = 'html';
      ctx.body = renderPullPage(pull, diff);
      return;
    }
    const { viewTokenHash: _hash, ...record } = pull;
    ctx.body = { ...record, diff };
  });
  return router;
}
