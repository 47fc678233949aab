import { coverageGaps, type AnalyticsStore, type TimeRange } from '../../core/analytics/index.js';
import { UsageError } from './context.js';
import { defineCommand, idAlone, str } from './flags.js';

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const TOP = 5;

/** `7d`, `24h`, `2w`: how far back the report looks. */
export function parseSince(text: string): number {
  const m = /^(\d{1,4})([hdw])$/.exec(text);
  if (!m || Number(m[1]) === 0) throw new UsageError(`--since: expected a period such as 24h, 7d or 2w, got '${text}'`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`);

/** The report's lines: answered vs unanswered, top categories, top gaps, feedback ratio, searches. */
export async function analyticsReport(store: AnalyticsStore, domainId: string, range: TimeRange): Promise<string[]> {
  const [callers, categories, ratings, searches, gapQuestions] = await Promise.all([
    store.callerStats(domainId, range),
    store.categoryStats(domainId, range),
    store.feedbackByPage(domainId, range),
    store.searchStats(domainId, range),
    store.gapQuestions(domainId, range, 2000),
  ]);
  const total = callers.reduce((n, c) => n + c.total, 0);
  const answered = callers.reduce((n, c) => n + c.answered, 0);
  const helpful = ratings.reduce((n, p) => n + p.helpful, 0);
  const rated = ratings.reduce((n, p) => n + p.helpful + p.notHelpful, 0);
  const searchCount = searches.reduce((n, s) => n + s.searches, 0);
  const clicked = searches.reduce((n, s) => n + s.clickedSearches, 0);
  const lines = [
    `${domainId}: ${new Date(range.from).toISOString()} – ${new Date(range.to).toISOString()}`,
    `answers     ${total}: ${answered} answered (${percent(answered, total)}), ${total - answered} unanswered (${percent(total - answered, total)})`,
    `feedback    ${rated} ratings: ${helpful} helpful (${percent(helpful, rated)}), ${rated - helpful} not helpful`,
    `searches    ${searchCount}, click-through ${percent(clicked, searchCount)}`,
    'top categories:',
    ...(categories.length === 0 ? ['  (none)'] : categories.slice(0, TOP).map((c) => `  ${String(c.total).padStart(6)}  ${c.category ?? '(no source)'}  (${c.unanswered} unanswered)`)),
    'top gaps:',
  ];
  const gaps = coverageGaps(gapQuestions).slice(0, TOP);
  if (gaps.length === 0) lines.push('  (none)');
  for (const gap of gaps) lines.push(`  ${String(gap.count).padStart(6)}  ${gap.topic.join(', ') || gap.questions[0]}  [${gap.id}]`, `          ${gap.suggestion}`);
  return lines;
}

/** `quire analytics DOMAIN [--since 7d]`: a short report from the analytics store (the API's own). */
export const analyticsCommand = defineCommand({
  summary: 'Answered vs unanswered, top categories, top gaps and the feedback ratio of a domain.',
  usage: ['DOMAIN [--since 7d]'],
  flags: { since: { type: 'string', value: 'AGE', help: 'the period: hours, days or weeks back (24h, 7d, 2w; default 7d)' } },
  opens: 'database',
  check([domainId, ...rest], values) {
    if (!domainId || rest.length > 0) throw new UsageError('quire analytics DOMAIN [--since 7d]');
    idAlone('DOMAIN', domainId);
    parseSince(str(values, 'since') ?? '7d');
  },
  run: async ([domainId = ''], values, ctx) => {
  const since = parseSince(str(values, 'since') ?? '7d');
  const domain = await ctx.tenants.getDomain(domainId);
  if (!domain) throw new Error(`unknown domain '${domainId}'`);
  const to = Date.now();
  const lines = await analyticsReport(ctx.analyticsStore, domain.id, { from: to - since, to });
  ctx.out.write(lines.join('\n') + '\n');
  return 0;
  },
});
