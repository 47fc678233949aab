import type { AnswerRecord, CallerStat, FeedbackView, SearchStat } from '../../core/analytics/index.js';

const iso = (at: number) => new Date(at).toISOString();

/** A recorded answer as the conversations listing shows it (Mintlify's field names, plus Quire's own). */
export function conversationView(r: AnswerRecord, baseUrl: string) {
  return {
    id: r.id,
    timestamp: iso(r.at),
    query: r.question,
    response: r.answer,
    responseType: r.mode,
    sources: r.sources.map(({ title, url }) => ({ title, url })),
    resolutionStatus: r.resolution,
    unansweredReason: r.unansweredReason,
    queryCategory: r.category,
    pageUrl: r.currentPath ? `${baseUrl.replace(/\/+$/, '')}/${r.currentPath.replace(/^\/+/, '')}` : null,
    threadId: r.threadId,
    surface: r.surface,
    callerKind: r.caller,
    fp: r.fp,
  };
}

export function feedbackView(f: FeedbackView) {
  return {
    id: f.messageId,
    path: f.currentPath,
    comment: f.comment,
    createdAt: iso(f.at),
    helpful: f.helpful,
    threadId: f.threadId,
    messageId: f.messageId,
    query: f.question,
  };
}

export function searchView(s: SearchStat) {
  return {
    searchQuery: s.query,
    searches: s.searches,
    hits: Math.round(s.averageHits * 100) / 100,
    ctr: s.searches === 0 ? 0 : Math.round((s.clickedSearches / s.searches) * 10_000) / 10_000,
    topClickedPage: s.topClickedPage,
    lastSearchedAt: iso(s.lastSearchedAt),
  };
}

export function callerStatsView(stats: CallerStat[]) {
  const sum = (pick: (s: CallerStat) => number) => stats.reduce((n, s) => n + pick(s), 0);
  return {
    total: sum((s) => s.total),
    answered: sum((s) => s.answered),
    unanswered: sum((s) => s.unanswered),
    callers: stats.map((s) => ({ callerKind: s.caller, surface: s.surface, total: s.total, answered: s.answered, unanswered: s.unanswered })),
  };
}
