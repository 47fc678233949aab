import Router from '@koa/router';
import { TENANT_ID } from '../../core/tenants/index.js';
import { HttpError, notFound } from '../http-error.js';
import { startIndexRun } from '../index-run.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { pushDeliveryOf } from './push-delivery.js';
import { eventOutcome, pushOutcome, type PushOutcome } from './push-outcome.js';
import { PushBody, type PushHookAnswerOut } from './schemas.js';
import { PUSH_WARNING_INTERVAL_MS, WarningThrottle } from './warning-throttle.js';

/** What the push hook uses: the domains, the secrets' variables, Temporal to start indexing. */
export type PushHookRouterDeps = Pick<ApiServices, 'tenants' | 'secrets' | 'temporal' | 'config' | 'logger'>;

/** 401 `invalid_signature`: the delivery's signature, token or bearer is missing or does not match. */
const invalidSignature = () =>
  new HttpError(401, 'invalid_signature', 'the delivery is not signed with the domain’s push secret (X-Hub-Signature-256, X-Gitlab-Token or Authorization: Bearer)');

/**
 * `POST /v2/hooks/domains/{domainId}/push`: a forge tells Quire of a push to the docs repository,
 * and a push to the domain's branch re-indexes it the way `POST /v2/admin/domains/{id}/index` does
 * (a run under way is joined and runs again). The domain's secret is read from the API's variable
 * its `pushSecretEnv` names; a domain without one, or whose variable is unset, is not found, as an
 * unknown domain is, so the hook tells no one which domains exist. `unsetWarnings` lets the warning
 * about an unset variable through once an hour per domain and variable (tests hand it their clock).
 */
export function pushHookRouter(services: PushHookRouterDeps, unsetWarnings = new WarningThrottle({ intervalMs: PUSH_WARNING_INTERVAL_MS })): Router {
  const { tenants, logger } = services;
  const router = new Router();

  router.post('/v2/hooks/domains/:domainId/push', async (ctx) => {
    const id = String(ctx.params.domainId);
    const domain = TENANT_ID.test(id) ? await tenants.getDomain(id) : undefined;
    const secret = domain?.pushSecretEnv === undefined ? undefined : services.secrets(domain.pushSecretEnv);
    // Once an hour per domain and variable, not per delivery: a forge retries, and anyone may call the hook.
    if (domain?.pushSecretEnv !== undefined && secret === undefined && unsetWarnings.allow(`${domain.id} ${domain.pushSecretEnv}`))
      logger.warn({ domainId: id, variable: domain.pushSecretEnv }, "the push hook's secret variable is not set on the API: pushes to the domain answer 404");
    if (!domain || secret === undefined) throw notFound(`domain '${id}'`);

    const delivery = pushDeliveryOf(ctx.headers);
    if (!delivery?.signedWith(secret, ctx.request.rawBody ?? '')) throw invalidSignature();

    const outcome: PushOutcome = eventOutcome(delivery) ?? pushOutcome(parseInput(PushBody, ctx.request.body ?? {}), domain.branch);
    const answer: PushHookAnswerOut = { outcome: outcome.kind === 'index' ? 'indexing' : outcome.kind, domainId: domain.id };
    if (outcome.kind !== 'pong' && outcome.branch !== undefined) answer.branch = outcome.branch;
    if (outcome.kind === 'ignored') answer.reason = outcome.reason;
    if (outcome.kind === 'index') answer.runId = (await startIndexRun(services.temporal, services.config.temporal.taskQueue, domain.id)).runId;
    logger.info({ domainId: domain.id, form: delivery.form, event: delivery.event.slice(0, 100), outcome: answer.outcome, reason: answer.reason }, 'push hook');
    ctx.status = outcome.kind === 'pong' ? 200 : 202;
    ctx.body = answer;
  });

  return router;
}
