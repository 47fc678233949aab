import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { branchDiff, canViewWithToken } from '../../core/forge/index.js';
import { requireKey } from '../auth.js';
import { sessionTokenOf } from '../console/cookie.js';
import type { AuthState } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import type { PullView } from './operations.js';
import { PULL_PAGE_HEADERS, renderPullPage } from './pull-page.js';
import { newNonce, renderSignInPage, signInHeaders, type SignInReason } from './sign-in-page.js';

const wantsHtml = (ctx: Context) => ctx.accepts('json', 'html') === 'html';

/** A browser without a key, or with a link whose token opens nothing, gets a page that asks for one. */
function signIn(ctx: Context, status: 401 | 404, reason: SignInReason): void {
  const nonce = newNonce();
  ctx.status = status;
  ctx.set(signInHeaders(nonce));
  if (status === 401) ctx.set('WWW-Authenticate', 'Bearer');
  ctx.type = 'html';
  ctx.body = renderSignInPage(reason, nonce);
}

/** What the pull request pages use: the local forge's pull requests and the projects they belong to. */
export type PullsRouterDeps = Pick<ApiServices, 'tenants' | 'pulls'>;

/**
 * The embedded forge's pull requests: GET /forge/{projectId}/pulls/{number},
 * with the view token of the link (`?token=`, that one pull request only) or
 * an admin key of the project's organisation. JSON by default, HTML for
 * browsers; the diff is computed from git at read time. A browser without
 * either gets a sign-in page instead of a JSON error.
 */
export function pullsRouter(services: PullsRouterDeps): Router {
  const router = new Router();
  const store = services.pulls;
  const adminKey = requireKey(services.tenants, 'admin');
  // The link's token stands in for the key; without one, the admin key is required as before.
  const keyUnlessToken = (ctx: Context, next: Next) => {
    if (typeof ctx.query.token === 'string') return next();
    if (!ctx.get('Authorization') && !sessionTokenOf(ctx) && wantsHtml(ctx)) return signIn(ctx, 401, 'missing');
    return adminKey(ctx, next);
  };

  router.get('/forge/:projectId/pulls/:number', keyUnlessToken, async (ctx) => {
    const auth = ctx.state.auth as AuthState | undefined;
    const project = await services.tenants.getProject(ctx.params.projectId ?? '');
    const found = project && (!auth || project.orgId === auth.orgId) ? await store.get(project.id, Number(ctx.params.number)) : undefined;
    // Another organisation's project, a wrong token or a missing pull request all look the same.
    const pull = found && (auth || canViewWithToken(found, String(ctx.query.token))) ? found : undefined;
    if (!project || !pull) {
      if (!auth && wantsHtml(ctx)) return signIn(ctx, 404, 'bad-token');
      throw notFound('pull request');
    }
    const diff = await branchDiff(project.repository, pull.base, pull.branch).catch(() => '');
    ctx.set(PULL_PAGE_HEADERS);
    if (wantsHtml(ctx)) {
      ctx.type = 'html';
      ctx.body = renderPullPage(pull, diff, project.repository);
      return;
    }
    const { viewTokenHash: _hash, ...record } = pull;
    const view: PullView = { ...record, diff };
    ctx.body = view;
  });
  return router;
}
