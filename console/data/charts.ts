import type { CallerStats, Conversation, DayTraffic, Feedback, PathTraffic, SearchStat } from './shapes.js';

/** A chart's data: one label per bar or point, and one list of numbers per series. */
export interface ChartData {
  labels: string[];
  series: Array<{ name: string; values: number[] }>;
  /** Labels are days (a time series), rather than items (terms, pages). */
  byDay?: boolean;
}

const DAY_MS = 86_400_000;

/** The most days a chart draws: past it, the last ones (a period the picker refuses never gets here). */
const MAX_DAYS = 3660;

/** Every UTC day from `from` to `to` inclusive, as `YYYY-MM-DD`; at most the last MAX_DAYS of them. */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  const start = Math.max(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()), to.getTime() - (MAX_DAYS - 1) * DAY_MS);
  for (let t = start; t <= to.getTime(); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

const DAY_LABEL = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A chart's labels as its axis shows them: days (`2026-11-26`) as `26 Nov`, with the year
 * (`26 Nov 2026`) when the days run over more than one year; anything else as it is, cut at 40
 * characters.
 */
export function axisLabels(labels: readonly string[]): string[] {
  const years = new Set(labels.filter((l) => DAY_LABEL.test(l)).map((l) => l.slice(0, 4)));
  const format: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', timeZone: 'UTC', ...(years.size > 1 ? { year: 'numeric' } : {}) };
  return labels.map((label) => {
    if (DAY_LABEL.test(label)) return new Date(`${label}T00:00:00Z`).toLocaleDateString('en-GB', format);
    return label.length > 40 ? `${label.slice(0, 39)}…` : label;
  });
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

/**
 * Questions, and answered against unanswered, per day: from the server's
 * daily counts when there are any (every answer of the period), else counted
 * from the conversations read.
 */
export function answersByDay(conversations: Conversation[], stats: Pick<CallerStats, 'days'> | null, days: string[]): { questions: ChartData; answered: ChartData } {
  if (!stats?.days) return { questions: questionsPerDay(conversations, days), answered: answeredPerDay(conversations, days) };
  const byDay = new Map(stats.days.map((d) => [d.date, d]));
  const pick = (key: 'total' | 'answered' | 'unanswered') => days.map((d) => byDay.get(d)?.[key] ?? 0);
  return {
    questions: { labels: days, series: [{ name: 'Questions', values: pick('total') }] },
    answered: { labels: days, series: [{ name: 'Answered', values: pick('answered') }, { name: 'Unanswered', values: pick('unanswered') }] },
  };
}

/** Answered and unanswered questions per day, as the API resolved each. */
export function answeredPerDay(conversations: Conversation[], days: string[]): ChartData {
  return countByDay(conversations, days, (c) => dayOfIso(c.timestamp), [
    { name: 'Answered', keep: (c) => c.resolutionStatus === 'answered' },
    { name: 'Unanswered', keep: (c) => c.resolutionStatus === 'unanswered' },
  ]);
}

/** Thumbs up and down per day. */
export function feedbackPerDay(feedback: Feedback[], days: string[]): ChartData {
  return countByDay(feedback, days, (f) => dayOfIso(f.createdAt), [
    { name: 'Thumbs up', keep: (f) => f.helpful === true },
    { name: 'Thumbs down', keep: (f) => f.helpful === false },
  ]);
}

/** The most searched queries, most first. */
export function topSearches(searches: SearchStat[], limit = 10): ChartData {
  const top = [...searches].sort((a, b) => b.hits - a.hits || a.searchQuery.localeCompare(b.searchQuery)).slice(0, limit);
  return { labels: top.map((s) => s.searchQuery), series: [{ name: 'Searches', values: top.map((s) => s.hits) }] };
}

/**
 * Page views or visitors, human and AI: per day when the server sends its
 * daily counts, else per page (the most first); null when the server has no
 * such endpoint (shown as "no data", not an error).
 */
export function traffic(report: { rows: PathTraffic[]; days?: DayTraffic[] } | null, what: 'views' | 'visitors', days: string[], limit = 10): ChartData | null {
  if (!report) return null;
  const names = what === 'views' ? ['Human views', 'AI views'] : ['Human visitors', 'AI visitors'];
  if (report.days) {
    const byDay = new Map(report.days.map((d) => [d.date, d]));
    return { labels: days, byDay: true, series: [{ name: names[0]!, values: days.map((d) => byDay.get(d)?.human ?? 0) }, { name: names[1]!, values: days.map((d) => byDay.get(d)?.ai ?? 0) }] };
  }
  const rows = [...report.rows].sort((a, b) => b.total - a.total || a.path.localeCompare(b.path)).slice(0, limit);
  return { labels: rows.map((r) => r.path), series: [{ name: names[0]!, values: rows.map((r) => r.human) }, { name: names[1]!, values: rows.map((r) => r.ai) }] };
}

/** True when every value of every series is zero: the chart says so in words. */
export function isEmpty(data: ChartData | null): boolean {
  return !data || data.series.every((s) => s.values.every((v) => v === 0));
}
