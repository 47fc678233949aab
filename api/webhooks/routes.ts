import Router from '@koa/router';
import type { Context } from 'koa';
import { newWebhook, toWebhookView } from '../../core/webhooks/index.js';
import { authOf, requireKey } from '../auth.js';
import { privateTargetProblem } from '../../core/http/index.js';
import { orgVariableProblem } from '../../core/tenants/org-variables.js';
import { badRequest, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { WebhookCreateBody } from './schemas.js';

/** What the webhook routes use. */
export type WebhooksRouterDeps = Pick<ApiServices, 'tenants' | 'webhooks' | 'config'>;

/**
 * A project's webhooks with the admin key: list, register (the generated signing secret is
 * answered this once) and remove, as `quire webhooks` does. Deliveries are the agent router's.
 */
export function webhooksRouter(services: WebhooksRouterDeps): Router {
  const { tenants, webhooks } = services;
  const router = new Router({ prefix: '/v2/agent/:projectId/webhooks' });
  router.use(requireKey(tenants, 'admin'));
  const projectOf = async (ctx: Context) => {
    const project = await tenants.getProject(String(ctx.params.projectId));
    if (!project || project.orgId !== authOf(ctx).orgId) throw notFound('project');
    return project;
  };

  router.get('/', async (ctx) => {
    const project = await projectOf(ctx);
    ctx.body = { webhooks: (await webhooks.list(project.id)).map(toWebhookView) };
  });
  router.post('/', async (ctx) => {
    const project = await projectOf(ctx);
    const body = parseInput(WebhookCreateBody, ctx.request.body);
    const problem = services.config.allowPrivateTargets ? undefined : await privateTargetProblem(body.url);
    if (problem) throw badRequest(`url ${problem}`, [{ path: 'url', message: problem }]);
    const variable =
      services.config.orgScopedVariables && body.secretEnv ? orgVariableProblem(project.orgId, body.secretEnv, (await tenants.listOrgs()).map((org) => org.id)) : undefined;
    if (variable) throw badRequest(`secretEnv ${variable}`, [{ path: 'secretEnv', message: variable }]);
    const { hook, secret } = newWebhook(project.id, body.url, body.events, body.secretEnv);
    ctx.body = { ...toWebhookView(await webhooks.put(hook)), signingSecret: secret ?? null };
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
  });
  router.delete('/:webhookId', async (ctx) => {
    const project = await projectOf(ctx);
    if (!(await webhooks.remove(project.id, String(ctx.params.webhookId)))) throw notFound('webhook');
    ctx.status = 204;
  });
  return router;
}
