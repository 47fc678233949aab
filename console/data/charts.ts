import type { Conversation, Feedback, PathTraffic, SearchStat, ViewsResponse, VisitorsResponse } from './shapes.js';

/** A chart's data: one label per bar or point, and one list of numbers per series. */
export interface ChartData {
  labels: string[];
  series: Array<{ name: string; values: number[] }>;
}

const DAY_MS = 86_400_000;

/** Every UTC day from `from` to `to` inclusive, as `YYYY-MM-DD`. */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let t = start; t <= to.getTime(); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

function countByDay<T>(items: T[], days: string[], dayOf: (item: T) => string | null, series: Array<{ name: string; keep: (item: T) => boolean }>): ChartData {
  const index = new Map(days.map((d, i) => [d, i]));
  const out = series.map((s) => ({ name: s.name, values: days.map(() => 0) }));
  for (const item of items) {
    const day = dayOf(item);
    const i = day === null ? undefined : index.get(day);
    if (i === undefined) continue;
    series.forEach((s, n) => {
      const values = out[n]?.values;
      if (values && s.keep(item)) values[i] = (values[i] ?? 0) + 1;
    });
  }
  return { labels: days, series: out };
}

const dayOfIso = (iso: string | null): string | null => (iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso).toISOString().slice(0, 10) : null);

/** Questions asked per day. */
export function questionsPerDay(conversations: Conversation[], days: string[]): ChartData {
  return countByDay(conversations, days, (c) => dayOfIso(c.timestamp), [{ name: 'Questions', keep: () => true }]);
}

/** Answered and unanswered questions per day; an answer without a resolution counts as answered when it cites a source. */
export function answeredPerDay(conversations: Conversation[], days: string[]): ChartData {
  return countByDay(conversations, days, (c) => dayOfIso(c.timestamp), [
    { name: 'Answered', keep: (c) => resolutionOf(c) === 'answered' },
    { name: 'Unanswered', keep: (c) => resolutionOf(c) === 'unanswered' },
  ]);
}

export function resolutionOf(c: Conversation): 'answered' | 'unanswered' {
  return c.resolutionStatus ?? (c.sources.length > 0 ? 'answered' : 'unanswered');
}

/** Thumbs up and down per day; ratings without `helpful` (Mintlify's contextual feedback) are left out. */
export function feedbackPerDay(feedback: Feedback[], days: string[]): ChartData {
  return countByDay(feedback, days, (f) => dayOfIso(f.createdAt), [
    { name: 'Thumbs up', keep: (f) => f.helpful === true },
    { name: 'Thumbs down', keep: (f) => f.helpful === false },
  ]);
}

/** The most searched queries, most first. */
export function topSearches(searches: SearchStat[], limit = 10): ChartData {
  const top = [...searches].sort((a, b) => b.searches - a.searches || a.searchQuery.localeCompare(b.searchQuery)).slice(0, limit);
  return { labels: top.map((s) => s.searchQuery), series: [{ name: 'Searches', values: top.map((s) => s.searches) }] };
}

/**
 * Page views and visitors by page, human and AI, the most viewed first; null
 * when the server has neither endpoint (shown as "no data", not an error).
 */
export function trafficByPage(views: ViewsResponse | null, visitors: VisitorsResponse | null, limit = 10): ChartData | null {
  if (!views && !visitors) return null;
  const byPath = new Map<string, { views?: PathTraffic; visitors?: PathTraffic }>();
  for (const v of views?.views ?? []) byPath.set(v.path, { ...byPath.get(v.path), views: v });
  for (const v of visitors?.visitors ?? []) byPath.set(v.path, { ...byPath.get(v.path), visitors: v });
  const rows = [...byPath.entries()]
    .sort(([pa, a], [pb, b]) => (b.views?.total ?? 0) - (a.views?.total ?? 0) || (b.visitors?.total ?? 0) - (a.visitors?.total ?? 0) || pa.localeCompare(pb))
    .slice(0, limit);
  const series: ChartData['series'] = [];
  if (views) series.push({ name: 'Human views', values: rows.map(([, r]) => r.views?.human ?? 0) }, { name: 'AI views', values: rows.map(([, r]) => r.views?.ai ?? 0) });
  if (visitors) series.push({ name: 'Human visitors', values: rows.map(([, r]) => r.visitors?.human ?? 0) }, { name: 'AI visitors', values: rows.map(([, r]) => r.visitors?.ai ?? 0) });
  return { labels: rows.map(([path]) => path), series };
}

/** True when every value of every series is zero: the chart says so in words. */
export function isEmpty(data: ChartData | null): boolean {
  return !data || data.series.every((s) => s.values.every((v) => v === 0));
}
