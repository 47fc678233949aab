import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { AnalyticsRecorder, createAnalyticsStore, type PageViewInput } from '../../../core/analytics/index.js';
import { createLogger } from '../../../core/logger.js';
import { forEachDialect } from '../../support/databases.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const DAY1 = Date.UTC(2026, 2, 3);
const READER = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chromium/130' };
const OTHER_READER = { ip: '198.51.100.23', userAgent: 'Mozilla/5.0 (Macintosh) Safari/18' };
const BOT = { ip: '192.0.2.50', userAgent: 'ClaudeBot/1.0' };

const view = (who: { ip: string; userAgent: string }, path: string, traffic: 'human' | 'ai' = 'human', domainId = 'docs'): PageViewInput => ({ domainId, path, traffic, ...who });

forEachDialect('page views and visitors', (database, dialect) => {
  let now = DAY1 + 9 * HOUR;
  const recorder = () =>
    new AnalyticsRecorder({ store: createAnalyticsStore(database()), logger: createLogger('silent', 'test'), retentionDays: 30, purgeIntervalMs: Number.MAX_SAFE_INTEGER, now: () => now });

  beforeEach(() => {
    now = DAY1 + 9 * HOUR;
  });

  it('counts views per path, per day and site-wide, human and AI apart', async () => {
    const r = recorder();
    r.recordView(view(READER, '/quickstart'));
    r.recordView(view(READER, '/quickstart'));
    r.recordView(view(OTHER_READER, '/guides/install'));
    r.recordView(view(BOT, '/llms.txt', 'ai'));
    r.recordView(view(BOT, '/quickstart', 'ai'));
    r.recordView(view(READER, '/quickstart', 'human', 'elsewhere'));
    now += DAY;
    r.recordView(view(READER, '/quickstart'));
    await r.tick();

    const report = await r.store.viewStats('docs', { from: DAY1, to: DAY1 + 2 * DAY - 1 });
    assert.deepEqual(report.totals, { human: 4, ai: 2, total: 6 });
    assert.deepEqual(report.paths, [
      { path: '/quickstart', human: 3, ai: 1, total: 4 },
      { path: '/guides/install', human: 1, ai: 0, total: 1 },
      { path: '/llms.txt', human: 0, ai: 1, total: 1 },
    ]);
    assert.deepEqual(report.days, [
      { day: DAY1, human: 3, ai: 2, total: 5 },
      { day: DAY1 + DAY, human: 1, ai: 0, total: 1 },
    ]);
    const firstDay = await r.store.viewStats('docs', { from: DAY1, to: DAY1 + DAY - 1 });
    assert.deepEqual(firstDay.totals, { human: 3, ai: 2, total: 5 });
  });

  it('counts each visitor once a day, per path and site-wide, a visitor seen as human and AI once in the total', async () => {
    const r = recorder();
    r.recordView(view(READER, '/quickstart'));
    r.recordView(view(READER, '/quickstart'));
    r.recordView(view(READER, '/guides/install'));
    r.recordView(view(OTHER_READER, '/quickstart'));
    r.recordView(view(BOT, '/quickstart', 'ai'));
    // The same address and agent fetching llms.txt as a tool would: one visitor, in both columns.
    r.recordView(view(READER, '/llms.txt', 'ai'));
    await r.tick();
    const report = await r.store.visitorStats('docs', { from: DAY1, to: DAY1 + DAY - 1 });
    assert.deepEqual(report.totals, { human: 2, ai: 2, total: 3 });
    assert.deepEqual(report.paths, [
      { path: '/quickstart', human: 2, ai: 1, total: 3 },
      { path: '/guides/install', human: 1, ai: 0, total: 1 },
      { path: '/llms.txt', human: 0, ai: 1, total: 1 },
    ]);
    assert.deepEqual(report.days, [{ day: DAY1, human: 2, ai: 2, total: 3 }]);
  });

  it('gives a reader a new hash each day, deletes the old salt, and stores no address or user agent', async () => {
    const r = recorder();
    r.recordView(view(READER, '/quickstart'));
    await r.tick();
    const db = database().queries;
    const salts1 = await db.selectFrom('visitor_salts').selectAll().execute();
    assert.deepEqual(salts1.map((s) => Number(s.day)), [DAY1]);
    now += DAY;
    r.recordView(view(READER, '/quickstart'));
    await r.tick();
    const salts2 = await db.selectFrom('visitor_salts').selectAll().execute();
    assert.deepEqual(salts2.map((s) => Number(s.day)), [DAY1 + DAY], 'yesterday’s salt is gone');
    assert.notEqual(salts2[0]?.salt, salts1[0]?.salt);

    const visitors = await db.selectFrom('page_visitors').select(['day', 'visitor']).orderBy('day').execute();
    assert.equal(visitors.length, 2);
    assert.notEqual(visitors[0]?.visitor, visitors[1]?.visitor, 'the same reader is another visitor the next day');
    // Two days, one reader: two visitors over the period (distinct per day, summed).
    assert.equal((await r.store.visitorStats('docs', { from: DAY1, to: DAY1 + 2 * DAY - 1 })).totals.human, 2);

    // Nothing stored holds the address or the user agent, in any form a query can see.
    for (const table of ['page_visitors', 'page_view_days', 'visitor_salts'] as const) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
      const text = JSON.stringify(rows);
      assert.ok(rows.length > 0, table);
      for (const secret of [READER.ip, READER.userAgent, 'Chromium']) assert.ok(!text.includes(secret), `${table} holds ${secret} (${dialect})`);
    }
  });

  it('deletes the days past the retention', async () => {
    const r = recorder();
    r.recordView(view(READER, '/quickstart'));
    await r.tick();
    now += 31 * DAY;
    r.recordView(view(READER, '/quickstart'));
    await r.tick();
    assert.ok((await r.purge()) >= 2);
    const all = await r.store.viewStats('docs', { from: 0, to: now });
    assert.deepEqual(all.days.map((d) => d.day), [DAY1 + 31 * DAY]);
    assert.equal((await r.store.visitorStats('docs', { from: 0, to: now })).totals.human, 1);
  });
});
