import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { createHash, timingSafeEqual } from 'node:crypto';
import { deleteOrganisation, OrgDeletionIncompleteError } from '../../core/deletion/index.js';
import { engineClassifier } from '../../core/engine-errors.js';
import { EngineTimeoutError, UnavailableError } from '../../core/errors.js';
import { HttpError, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { tenantErrors } from './routes.js';
import { OrgCreateBody } from './schemas.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Requires the operator token (`QUIRE_OPERATOR_TOKEN`). Unset, the routes do not exist (404); an
 * organisation's key, or any other token, is 401.
 */
function requireOperator(token: string | undefined) {
  return async function operatorOnly(ctx: Context, next: Next): Promise<void> {
    if (!token) throw notFound('route');
    const sent = BEARER.exec(ctx.get('Authorization'))?.[1];
    // Compared as digests: constant time whatever the lengths.
    if (!sent || !timingSafeEqual(digest(sent), digest(token))) throw new HttpError(401, 'unauthorized', 'this endpoint needs the operator token');
    await next();
  };
}

/** What the operator routes use: the organisations, the operator token, and Temporal, the automations and the jobs to delete an organisation's schedules and stop its jobs. */
export type OperatorRouterDeps = Pick<ApiServices, 'tenants' | 'config' | 'temporal' | 'automations' | 'jobs' | 'docIndex' | 'webhooks'>;

/**
 * A deletion that could not finish is a 503 with Retry-After whatever stopped it (Temporal down, a
 * project added as it began): the request is safe to repeat, and the message says what is left.
 */
function unfinished(err: OrgDeletionIncompleteError): UnavailableError {
  const classified = engineClassifier()(err.cause);
  const engine = classified instanceof UnavailableError || classified instanceof EngineTimeoutError ? classified.engine : 'database';
  return new UnavailableError(engine, err.message, { cause: err });
}

/** Organisations and their limits, for the operator of the deployment only. */
export function operatorRouter(services: OperatorRouterDeps): Router {
  const router = new Router({ prefix: '/v2/operator' });
  router.use(requireOperator(services.config.operatorToken), tenantErrors);
  router.get('/orgs', async (ctx) => {
    ctx.body = { orgs: await services.tenants.listOrgs() };
  });
  router.post('/orgs', async (ctx) => {
    const body = parseInput(OrgCreateBody, ctx.request.body);
    const existed = await services.tenants.getOrg(body.id);
    ctx.body = await services.tenants.addOrg(body.id, body.limits);
    ctx.status = existed ? 200 : 201;
  });
  router.delete('/orgs/:orgId', async (ctx) => {
    try {
      ctx.body = await deleteOrganisation(services, ctx.params.orgId!);
    } catch (err) {
      throw err instanceof OrgDeletionIncompleteError ? unfinished(err) : err;
    }
  });
  return router;
}
