/**
 * The analytics store at 1,000,000 recorded answers (SQLite, the embedded
 * default): write throughput in the recorder's batches, then the median and
 * p95 of the analytics API's main queries — a page of 100 conversations
 * (first and deep pages), caller-stats and category stats over 30 days, the
 * coverage-gap questions — each beside the same SQL forced to a full scan
 * (`NOT INDEXED`) on the same data, in the same run.
 * Usage: npm run bench:analytics (BENCH_ROWS=200000 for a quicker run)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { coverageGaps, createAnalyticsStore, type AnalyticsEvent, type AnswerRecord, type ListCursor } from '../core/analytics/index.js';
import { databaseTarget, openMigratedDatabase } from '../core/db/index.js';
import { seededRandom } from './generate-docs.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const BATCH = 500; // the recorder's batch size
const DAY = 86_400_000;
const SPAN_DAYS = 90;
const DOMAINS = ['docs', 'api', 'blog', 'help'];
const CATEGORIES = ['guides', 'api-reference', 'concepts', 'integrations', 'changelog', null];
const CALLERS = ['browser', 'server', 'other'] as const;
const SURFACES = ['assistant', 'assistant', 'assistant', 'openai', 'mcp'] as const;
const WORDS = 'install deploy rotate key webhook token domain widget theme search index billing invoice sso saml export import limit quota retry'.split(' ');

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function measure(runs: number, fn: (i: number) => unknown): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

function report(name: string, indexed: { p50: number; p95: number }, scan: { p50: number; p95: number }): void {
  console.log(
    `${name.padEnd(34)} p50 ${ms(indexed.p50).padStart(9)}  p95 ${ms(indexed.p95).padStart(9)}   full scan p50 ${ms(scan.p50).padStart(9)}  (×${(scan.p50 / indexed.p50).toFixed(0)})`,
  );
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-analytics-'));
  const target = databaseTarget(undefined, dir);
  if (target.dialect !== 'sqlite') throw new Error('the analytics bench measures the embedded database');
  const { file } = target;
  const database = await openMigratedDatabase(target);
  try {
    const store = createAnalyticsStore(database);
    const random = seededRandom(13);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const end = Date.UTC(2026, 5, 30);
    const start = end - SPAN_DAYS * DAY;

    console.log(`writing ${ROWS.toLocaleString('en')} answers in batches of ${BATCH} (${DOMAINS.length} domains, ${SPAN_DAYS} days)…`);
    const writeStarted = performance.now();
    for (let i = 0; i < ROWS; i += BATCH) {
      const batch: AnalyticsEvent[] = [];
      for (let j = i; j < Math.min(ROWS, i + BATCH); j++) {
        const category = pick(CATEGORIES);
        const unanswered = random() < 0.12;
        const question = `How do I ${pick(WORDS)} the ${pick(WORDS)} with ${pick(WORDS)}?`;
        const record: AnswerRecord = {
          id: `msg_${j.toString(16).padStart(8, '0')}`,
          orgId: 'acme',
          domainId: j % 10 < 7 ? 'docs' : pick(DOMAINS),
          threadId: `t_${Math.floor(j / 3)}`,
          // Increasing with small jitter, as a live recorder writes them.
          at: Math.floor(start + (j / ROWS) * SPAN_DAYS * DAY + random() * 1000),
          question,
          answer: `To ${question.slice(9, -1)}, open the settings and follow the steps on the page [1]. `.repeat(3),
          sources: unanswered ? [] : [{ title: 'A page', url: `https://docs.example.com/${category ?? 'index'}/page-${j % 500}`, path: `/${category ?? 'index'}/page-${j % 500}` }],
          mode: 'model',
          surface: pick(SURFACES),
          caller: pick(CALLERS),
          fp: `fp_${j % 5000}`,
          currentPath: `/${category ?? 'index'}/page-${j % 300}`,
          resolution: unanswered ? 'unanswered' : 'answered',
          unansweredReason: unanswered ? 'no_citation' : null,
          category: unanswered ? null : category,
        };
        batch.push({ kind: 'answer', record });
      }
      await store.write(batch);
    }
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    const size = (await fs.stat(file)).size;
    console.log(`write: ${Math.round(ROWS / writeSeconds).toLocaleString('en')} answers/s (${writeSeconds.toFixed(1)} s; database ${(size / 1e6).toFixed(0)} MB)\n`);

    // The baseline: the same statements on the same file, SQLite told not to use any index.
    const raw = new BetterSqlite3(file, { readonly: true });
    const last30 = { from: end - 30 * DAY, to: end };
    const RUNS = 30;
    const SCAN_RUNS = 5;

    const cursors: ListCursor[] = [];
    for (let i = 0; i < RUNS; i++) cursors.push({ at: Math.floor(last30.from + ((i + 0.5) / RUNS) * (last30.to - last30.from)), id: 'msg_~' });
    const pageSql = `SELECT answer_json FROM answers NOT INDEXED WHERE domain_id = ? AND at >= ? AND at <= ? AND (at < ? OR (at = ? AND id < ?)) ORDER BY at DESC, id DESC LIMIT 101`;
    report(
      'first page of 100 conversations',
      await measure(RUNS, () => store.listAnswers('docs', { ...last30, limit: 100 })),
      await measure(SCAN_RUNS, () => raw.prepare(pageSql.replace(' AND (at < ? OR (at = ? AND id < ?))', '')).all('docs', last30.from, last30.to)),
    );
    report(
      'a page of 100 deeper in 30 days',
      await measure(RUNS, (i) => store.listAnswers('docs', { ...last30, limit: 100, after: cursors[i] })),
      await measure(SCAN_RUNS, (i) => raw.prepare(pageSql).all('docs', last30.from, last30.to, cursors[i]!.at, cursors[i]!.at, 'msg_~')),
    );
    report(
      'caller-stats over 30 days',
      await measure(RUNS, () => store.callerStats('docs', last30)),
      await measure(SCAN_RUNS, () =>
        raw
          .prepare(`SELECT caller, surface, COUNT(*), SUM(resolution = 'answered') FROM answers NOT INDEXED WHERE domain_id = ? AND at >= ? AND at <= ? GROUP BY caller, surface`)
          .all('docs', last30.from, last30.to),
      ),
    );
    report(
      'categories over 30 days',
      await measure(RUNS, () => store.categoryStats('docs', last30)),
      await measure(SCAN_RUNS, () =>
        raw.prepare(`SELECT category, COUNT(*) FROM answers NOT INDEXED WHERE domain_id = ? AND at >= ? AND at <= ? GROUP BY category`).all('docs', last30.from, last30.to),
      ),
    );
    const last7 = { from: end - 7 * DAY, to: end };
    report(
      'gap questions, 7 days (2,000)',
      await measure(10, () => store.gapQuestions('docs', last7, 2000)),
      await measure(SCAN_RUNS, () =>
        raw
          .prepare(`SELECT answer_json FROM answers NOT INDEXED WHERE domain_id = ? AND resolution = 'unanswered' AND at >= ? AND at <= ? ORDER BY at DESC LIMIT 2000`)
          .all('docs', last7.from, last7.to),
      ),
    );
    const questions = await store.gapQuestions('docs', last7, 2000);
    const clustering = await measure(5, () => coverageGaps(questions));
    console.log(`${'clustering 2,000 gap questions'.padEnd(34)} p50 ${ms(clustering.p50).padStart(9)}  p95 ${ms(clustering.p95).padStart(9)}   (${coverageGaps(questions).length} gaps)`);
    const purge = performance.now();
    const removed = await store.purge(start + 10 * DAY);
    console.log(`${'purge of the oldest 10 days'.padEnd(34)} ${ms(performance.now() - purge)} (${removed.toLocaleString('en')} records)`);
    raw.close();
  } finally {
    await database.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
