import type Router from '@koa/router';
import { threadKeyMatches, type ThreadStore } from '../../core/threads/index.js';
import { assistantLimits } from '../assistant/index.js';
import { authOf, ownDomain, requireKey } from '../auth.js';
import { spendLimit } from '../error-middleware.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { recorderOf } from './recorder-of.js';
import { ClickBody, FeedbackBody } from './schemas.js';

export type FeedbackRoutesDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'analytics'>;

/**
 * The endpoints a docs front-end calls (assistant key, CORS): a rating of an
 * answer, a reader's erasure of their thread, and a click on a search result. A rating is taken only from the
 * holder of the thread (its key), stored at once (it is rare and a reader
 * expects it kept); a click goes through the recorder like a search.
 */
export function feedbackRoutes(router: Router, services: FeedbackRoutesDeps, threads: ThreadStore): void {
  const { tenants, limiter } = services;
  const recorder = recorderOf(services);
  const auth = requireKey(tenants, 'assistant');

  router.post('/discovery/v1/assistant/:domain/feedback', auth, async (ctx) => {
    const { key, orgId } = authOf(ctx);
    const domain = await ownDomain(tenants, ctx);
    const body = parseInput(FeedbackBody, ctx.request.body ?? {});
    const org = await tenants.getOrg(orgId);
    // Refused after counting (an unknown thread or answer, the database down): the rating spends nothing.
    await spendLimit(ctx, limiter, assistantLimits({ keyId: key.id, orgId, ip: ctx.ip }, org?.limits), async () => {
      const thread = await threads.load(orgId, body.threadId);
      // Not the holder, not this domain's thread, or no such answer in it: all the same 404, as for the assistant.
      const holder = thread && thread.domainId === domain.id && threadKeyMatches(thread.keyHash, body.threadKey);
      if (!holder || !thread.exchanges.some((e) => e.messageId === body.messageId)) throw notFound(`message '${body.messageId}' in thread '${body.threadId}'`);
      await recorder.store.putFeedback({
        domainId: domain.id,
        messageId: body.messageId,
        threadId: body.threadId,
        helpful: body.helpful,
        comment: body.comment ?? null,
        at: recorder.now(),
      });
    });
    ctx.status = 204;
  });

  // A reader's right to have their conversation removed: the key that holds the thread erases it, now, not at its retention.
  router.delete('/discovery/v1/assistant/:domain/threads/:threadId', auth, async (ctx) => {
    const { key, orgId } = authOf(ctx);
    const domain = await ownDomain(tenants, ctx);
    const threadId = String(ctx.params.threadId ?? '');
    // No thread has an id that long: refused before counting.
    if (threadId.length > 128) throw notFound(`thread '${threadId.slice(0, 128)}'`);
    const org = await tenants.getOrg(orgId);
    // Refused after counting (an unknown thread, the database down): the erasure spends nothing.
    await spendLimit(ctx, limiter, assistantLimits({ keyId: key.id, orgId, ip: ctx.ip }, org?.limits), async () => {
      const thread = await threads.load(orgId, threadId);
      // Not the holder, or not this domain's thread: the same 404 as an unknown one.
      if (!thread || thread.domainId !== domain.id || !threadKeyMatches(thread.keyHash, ctx.get('X-Thread-Key'))) throw notFound(`thread '${threadId}'`);
      await threads.erase({ orgId, domainId: domain.id, threadId });
    });
    ctx.status = 204;
  });

  router.post('/discovery/v1/search/:domain/click', auth, async (ctx) => {
    const { orgId } = authOf(ctx);
    const domain = await ownDomain(tenants, ctx);
    const body = parseInput(ClickBody, ctx.request.body ?? {});
    const org = await tenants.getOrg(orgId);
    // The search endpoints' counter: a click costs what a search costs.
    const points = org?.limits?.assistantPerOrgPerHour ?? 10000;
    // Recording never waits on the database; should it fail all the same, the click spends nothing.
    await spendLimit(ctx, limiter, [{ name: 'assistant-org', subject: orgId, points, window: 'hour' }], async () => {
      recorder.record({ kind: 'click', record: { domainId: domain.id, searchId: body.searchId, path: body.path, at: recorder.now() } });
    });
    ctx.status = 204;
  });
}
