import type Router from '@koa/router';
import { encodeListCursor } from '../../core/analytics/index.js';
import type { ThreadStore } from '../../core/threads/index.js';
import { authOf, ownDomain, requireKey } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { recorderOf } from './recorder-of.js';
import { encodeReportCursor, listCursor, reportCursor, reportRange, slice } from './report-query.js';
import { answerAsThread, callerStatsView, conversationView, feedbackView, searchView, threadView, trafficPage } from './report-views.js';
import { ConversationsQuery, FeedbackByPageQuery, FeedbackQuery, PeriodQuery, SearchesQuery, TrafficQuery } from './schemas.js';

/** Quire's ratings are `contextual` and never reviewed (`pending`): a filter for anything else matches none. */
const ratingsMatch = (q: { source?: string | undefined; status?: string | undefined }) =>
  (q.source === undefined || q.source === 'contextual') && (q.status === undefined || q.status.split(',').includes('pending'));

export type ReportRoutesDeps = Pick<ApiServices, 'tenants' | 'analytics' | 'config'>;

/** The analytics API (admin key), addressed by domain; another organisation's domain is 404. */
export function reportRoutes(router: Router, services: ReportRoutesDeps, threads: ThreadStore): void {
  const { tenants, config } = services;
  const recorder = recorderOf(services);
  const store = recorder.store;
  const days = config.retention.analyticsDays;
  const auth = requireKey(tenants, 'admin');
  const rangeOf = (q: { dateFrom?: string | undefined; dateTo?: string | undefined }) => reportRange(q, recorder.now(), days);

  router.get('/v1/analytics/:domain/assistant', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(ConversationsQuery, ctx.query, 'query');
    const page = await store.listAnswers(domain.id, { ...rangeOf(q), limit: q.limit, after: listCursor(q.cursor) });
    ctx.body = {
      conversations: page.items.map((r) => conversationView(r, domain.baseUrl)),
      nextCursor: page.next ? encodeListCursor(page.next) : null,
      hasMore: page.next !== undefined,
    };
  });

  router.get('/v1/analytics/:domain/assistant/caller-stats', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const range = rangeOf(parseInput(PeriodQuery, ctx.query, 'query'));
    ctx.body = callerStatsView(await store.callerStats(domain.id, range), await store.answerDays(domain.id, range), range);
  });

  router.get('/v1/analytics/:domain/assistant/threads/:threadId', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const id = String(ctx.params.threadId ?? '').slice(0, 256);
    // A thread id, or the id of a conversation row (an answer): Mintlify's clients look threads up by either.
    const answer = id.length <= 128 ? await store.getAnswer(domain.id, id) : undefined;
    const threadId = answer?.threadId ?? id;
    const thread = threadId.length <= 128 ? await threads.load(authOf(ctx).orgId, threadId) : undefined;
    if (thread && thread.domainId === domain.id) {
      ctx.body = threadView(thread, await store.threadFeedback(domain.id, thread.threadId));
      return;
    }
    if (answer && answer.threadId === null) {
      ctx.body = answerAsThread(answer);
      return;
    }
    throw notFound(`thread '${id.slice(0, 128)}'`);
  });

  // An admin's way to remove one conversation at a reader's request (the reader may have lost the thread's key).
  router.delete('/v1/analytics/:domain/assistant/threads/:threadId', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const threadId = String(ctx.params.threadId ?? '');
    if (threadId.length > 128 || !(await threads.erase({ orgId: authOf(ctx).orgId, domainId: domain.id, threadId }))) throw notFound(`thread '${threadId.slice(0, 128)}'`);
    ctx.status = 204;
  });

  router.get('/v1/analytics/:domain/searches', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(SearchesQuery, ctx.query, 'query');
    const after = reportCursor(q.cursor);
    const range = after ?? rangeOf(q);
    const offset = after?.offset ?? 0;
    const stats = await store.searchStats(domain.id, range);
    const { items, more } = slice(stats, offset, q.limit);
    ctx.body = {
      searches: items.map(searchView),
      totalSearches: stats.reduce((n, s) => n + s.searches, 0),
      nextCursor: more ? encodeReportCursor({ from: range.from, to: range.to, offset: offset + q.limit }) : null,
      hasMore: more,
    };
  });

  router.get('/v1/analytics/:domain/feedback', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(FeedbackQuery, ctx.query, 'query');
    const after = listCursor(q.cursor);
    if (!ratingsMatch(q)) {
      ctx.body = { feedback: [], nextCursor: null, hasMore: false };
      return;
    }
    const page = await store.listFeedback(domain.id, { ...rangeOf(q), limit: q.limit, after });
    ctx.body = { feedback: page.items.map(feedbackView), nextCursor: page.next ? encodeListCursor(page.next) : null, hasMore: page.next !== undefined };
  });

  router.get('/v1/analytics/:domain/feedback/by-page', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(FeedbackByPageQuery, ctx.query, 'query');
    const pages = ratingsMatch(q) ? await store.feedbackByPage(domain.id, rangeOf(q)) : [];
    const { items, more } = slice(pages, 0, q.limit);
    ctx.body = {
      feedback: items.map((p) => ({ path: p.path ?? '', thumbsUp: p.helpful, thumbsDown: p.notHelpful, code: 0, total: p.helpful + p.notHelpful })),
      hasMore: more,
    };
  });

  router.get('/v1/analytics/:domain/views', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(TrafficQuery, ctx.query, 'query');
    const { rows, ...rest } = trafficPage(await store.viewStats(domain.id, rangeOf(q)), q.offset, q.limit);
    ctx.body = { totals: rest.totals, views: rows, hasMore: rest.hasMore, days: rest.days };
  });

  router.get('/v1/analytics/:domain/visitors', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(TrafficQuery, ctx.query, 'query');
    const { rows, ...rest } = trafficPage(await store.visitorStats(domain.id, rangeOf(q)), q.offset, q.limit);
    ctx.body = { totals: rest.totals, visitors: rows, hasMore: rest.hasMore, days: rest.days };
  });
}
