import Router from '@koa/router';
import { branchDiff, PullStore } from '../../core/forge/index.js';
import { authOf, requireKey } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { renderPullPage } from './pull-page.js';

/**
 * The embedded forge's pull requests: GET /forge/{projectId}/pulls/{number} with an admin key of the
 * project's organisation. JSON by default, HTML for browsers; the diff is computed from git at read time.
 */
export function pullsRouter(services: ApiServices): Router {
  const router = new Router();
  const store = new PullStore(services.config.dataDir);
  router.get('/forge/:projectId/pulls/:number', requireKey(services.tenants, 'admin'), async (ctx) => {
    const { orgId } = authOf(ctx);
    const project = await services.tenants.getProject(ctx.params.projectId ?? '');
    // Another organisation's project looks exactly like a missing one.
    if (!project || project.orgId !== orgId) throw notFound('pull request');
    const number = Number(ctx.params.number);
    const pull = Number.isInteger(number) ? await store.get(project.id, number) : undefined;
    if (!pull) throw notFound('pull request');
    const diff = await branchDiff(project.repository, pull.base, pull.branch).catch(() => '');
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.type = 'html';
      ctx.body = renderPullPage(pull, diff);
      return;
    }
    ctx.body = { ...pull, diff };
  });
  return router;
}
