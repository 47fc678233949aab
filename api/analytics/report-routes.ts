import type Router from '@koa/router';
import { encodeListCursor } from '../../core/analytics/index.js';
import type { ThreadStore } from '../../core/threads/index.js';
import { authOf, ownDomain, requireKey } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { recorderOf } from './recorder-of.js';
import { encodeOffset, listCursor, offsetCursor, pageParams, reportRange } from './report-query.js';
import { callerStatsView, conversationView, feedbackView, searchView } from './report-views.js';

/** Page sizes: Mintlify's for conversations (100, at most 1000) and feedback (50, at most 100). */
const CONVERSATIONS = { fallback: 100, max: 1000 };
const FEEDBACK = { fallback: 50, max: 100 };
const SEARCHES = { fallback: 50, max: 1000 };

/** The analytics API (admin key), addressed by domain; another organisation's domain is 404. */
export function reportRoutes(router: Router, services: ApiServices, threads: ThreadStore): void {
  const { tenants, config } = services;
  const recorder = recorderOf(services);
  const store = recorder.store;
  const days = config.retention.analyticsDays;
  const auth = requireKey(tenants, 'admin');


  router.get('/v1/analytics/:domain/assistant', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const p = pageParams(ctx.query, recorder.now(), days, CONVERSATIONS.max, CONVERSATIONS.fallback);
    const page = await store.listAnswers(domain.id, { ...p.range, limit: p.limit, after: listCursor(p.cursor) });
    ctx.body = {
      conversations: page.items.map((r) => conversationView(r, domain.baseUrl)),
      nextCursor: page.next ? encodeListCursor(page.next) : null,
      hasMore: page.next !== undefined,
    };
  });

  router.get('/v1/analytics/:domain/assistant/caller-stats', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const range = reportRange(ctx.query, recorder.now(), days);
    ctx.body = { dateFrom: new Date(range.from).toISOString(), dateTo: new Date(range.to).toISOString(), ...callerStatsView(await store.callerStats(domain.id, range)) };
  });

  router.get('/v1/analytics/:domain/assistant/threads/:threadId', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const threadId = String(ctx.params.threadId ?? '');
    const thread = threadId.length <= 128 ? await threads.load(authOf(ctx).orgId, threadId) : undefined;
    if (!thread || thread.domainId !== domain.id) throw notFound(`thread '${threadId.slice(0, 128)}'`);
    const { keyHash: _keyHash, ...transcript } = thread;
    ctx.body = { ...transcript, conversations: (await store.threadAnswers(domain.id, threadId)).map((r) => conversationView(r, domain.baseUrl)) };
  });

  router.get('/v1/analytics/:domain/searches', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const p = pageParams(ctx.query, recorder.now(), days, SEARCHES.max, SEARCHES.fallback);
    const offset = offsetCursor(p.cursor);
    const stats = await store.searchStats(domain.id, p.range);
    const page = stats.slice(offset, offset + p.limit);
    const more = offset + p.limit < stats.length;
    ctx.body = {
      searches: page.map(searchView),
      totalSearches: stats.reduce((n, s) => n + s.searches, 0),
      nextCursor: more ? encodeOffset(offset + p.limit) : null,
      hasMore: more,
    };
  });

  router.get('/v1/analytics/:domain/feedback', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const p = pageParams(ctx.query, recorder.now(), days, FEEDBACK.max, FEEDBACK.fallback);
    const page = await store.listFeedback(domain.id, { ...p.range, limit: p.limit, after: listCursor(p.cursor) });
    ctx.body = { feedback: page.items.map(feedbackView), nextCursor: page.next ? encodeListCursor(page.next) : null, hasMore: page.next !== undefined };
  });

  router.get('/v1/analytics/:domain/feedback/by-page', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const range = reportRange(ctx.query, recorder.now(), days);
    const pages = await store.feedbackByPage(domain.id, range);
    ctx.body = { pages: pages.map((p) => ({ path: p.path, helpful: p.helpful, notHelpful: p.notHelpful, total: p.helpful + p.notHelpful })) };
  });
}
