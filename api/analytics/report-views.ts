import { dayOf, type AnswerDay, type AnswerRecord, type CallerStat, type FeedbackRecord, type FeedbackView, type SearchStat, type TrafficReport } from '../../core/analytics/index.js';
import type { ThreadTranscript } from '../../core/threads/index.js';
import { isoDay } from './report-query.js';
import type { CallerStats, Conversation, FeedbackItem, ThreadMessage, ThreadResponse } from './schemas.js';

const iso = (at: number) => new Date(at).toISOString();

/** A recorded answer as the conversations listing shows it (Mintlify's fields, then Quire's). */
export function conversationView(r: AnswerRecord, baseUrl: string): Conversation {
  return {
    id: r.id,
    timestamp: iso(r.at),
    query: r.question,
    response: r.answer,
    sources: r.sources.map(({ title, url }) => ({ title, url })),
    resolutionStatus: r.resolution,
    queryCategory: r.category,
    responseType: r.mode,
    unansweredReason: r.unansweredReason,
    pageUrl: r.currentPath ? `${baseUrl.replace(/\/+$/, '')}/${r.currentPath.replace(/^\/+/, '')}` : null,
    threadId: r.threadId,
    surface: r.surface,
    callerKind: r.caller,
    fp: r.fp,
  };
}

const rating = (f: FeedbackRecord | undefined) => (f ? { helpful: f.helpful, comment: f.comment, createdAt: iso(f.at) } : null);

/** A stored thread as Mintlify's `AssistantThreadResponse`: each exchange is the reader's message, then the answer. */
export function threadView(thread: Pick<ThreadTranscript, 'threadId' | 'createdAt' | 'exchanges'>, feedback: FeedbackRecord[]): ThreadResponse {
  const rated = new Map(feedback.map((f) => [f.messageId, f]));
  return {
    threadId: thread.threadId,
    createdAt: new Date(thread.createdAt).toISOString(),
    messages: thread.exchanges.flatMap((x): ThreadMessage[] => [
      { id: `${x.messageId}:user`, role: 'user', content: x.question, createdAt: new Date(x.startedAt).toISOString() },
      {
        id: x.messageId,
        role: 'assistant',
        content: x.answer,
        createdAt: new Date(x.finishedAt).toISOString(),
        sources: x.sources.map(({ title, url }) => ({ title, url })),
        feedback: rating(rated.get(x.messageId)),
      },
    ]),
  };
}

/** An answer of a stateless door (OpenAI-compatible, MCP) as a thread of its own (such answers cannot be rated). */
export function answerAsThread(r: AnswerRecord): ThreadResponse {
  const at = new Date(r.at).toISOString();
  const exchange = { messageId: r.id, question: r.question, answer: r.answer, sources: r.sources, startedAt: at, finishedAt: at };
  return threadView({ threadId: r.id, createdAt: at, exchanges: [{ ...exchange, fp: r.fp ?? '', mode: r.mode, outcome: 'complete' }] }, []);
}

export function feedbackView(f: FeedbackView): FeedbackItem {
  return {
    id: f.messageId,
    path: f.currentPath ?? '',
    comment: f.comment,
    createdAt: iso(f.at),
    source: 'contextual',
    status: 'pending',
    helpful: f.helpful,
    contact: null,
    threadId: f.threadId,
    messageId: f.messageId,
    query: f.question,
  };
}

export function searchView(s: SearchStat) {
  return {
    searchQuery: s.query,
    hits: s.searches,
    ctr: s.searches === 0 ? 0 : Math.round((s.clickedSearches / s.searches) * 10_000) / 10_000,
    topClickedPage: s.topClickedPage,
    lastSearchedAt: iso(s.lastSearchedAt),
    averageResults: Math.round(s.averageHits * 100) / 100,
  };
}

export function callerStatsView(stats: CallerStat[], days: AnswerDay[], range: { from: number; to: number }): CallerStats {
  const sum = (pick: (s: CallerStat) => number) => stats.reduce((n, s) => n + pick(s), 0);
  const of = (caller: CallerStat['caller']) => sum((s) => (s.caller === caller ? s.total : 0));
  return {
    web: of('browser'),
    api: of('server'),
    other: of('other'),
    total: sum((s) => s.total),
    dateFrom: iso(range.from),
    dateTo: iso(range.to + 1),
    answered: sum((s) => s.answered),
    unanswered: sum((s) => s.unanswered),
    callers: stats.map((s) => ({ callerKind: s.caller, surface: s.surface, total: s.total, answered: s.answered, unanswered: s.unanswered })),
    days: days.map((d) => ({ date: isoDay(dayOf(d.day)), total: d.total, answered: d.total - d.unanswered, unanswered: d.unanswered })),
  };
}

/** A traffic report's page of paths (`offset`, `limit`), its totals and its days. */
export function trafficPage(report: TrafficReport, offset: number, limit: number) {
  return {
    totals: report.totals,
    rows: report.paths.slice(offset, offset + limit),
    hasMore: offset + limit < report.paths.length,
    days: report.days.map(({ day, ...count }) => ({ date: isoDay(day), ...count })),
  };
}
