import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Queries } from '../db/index.js';
import type { PageViewRecord, TimeRange, Traffic, TrafficCount, TrafficReport } from './types.js';

const DAY_MS = 86_400_000;
const WRITE_CHUNK = 500;
const PURGE_SLICE = 500;
/** The UTC day an instant falls in, as the instant of its midnight. */
export const dayOf = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const isTraffic = (t: string): t is Traffic => t === 'human' || t === 'ai';

/** The days a range touches, as `day` bounds (both inclusive). */
const days = (range: TimeRange) => ({ first: dayOf(range.from), last: dayOf(range.to) });

interface Row {
  key: string | number;
  traffic: string;
  n: unknown;
}

/** Rows of (key, traffic, n) summed into per-key counts; `total` is given per key when it is not human + ai. */
function tally<K extends string | number>(rows: Row[], totals?: Map<K, number>): Map<K, TrafficCount> {
  const out = new Map<K, TrafficCount>();
  for (const row of rows) {
    if (!isTraffic(row.traffic)) continue;
    const key = row.key as K;
    const seen = out.get(key) ?? { human: 0, ai: 0, total: 0 };
    seen[row.traffic] += num(row.n);
    out.set(key, seen);
  }
  for (const [key, count] of out) count.total = totals?.get(key) ?? count.human + count.ai;
  return out;
}

function report(paths: Map<string, TrafficCount>, perDay: Map<number, TrafficCount>, totals: TrafficCount): TrafficReport {
  return {
    totals,
    // Most first, then by path (sorted here: the two engines collate text differently).
    paths: [...paths].map(([path, c]) => ({ path, ...c })).sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    days: [...perDay].map(([day, c]) => ({ day, ...c })).sort((a, b) => a.day - b.day),
  };
}

/**
 * Page views and visitors in the database: views as daily counts, visitors as one row per
 * hashed visitor, path and day, so "distinct per day" is a count and no address is kept.
 */
export function pageViewStore(database: Database) {
  const db = database.queries;

  return {
    /** Adds a batch's views, inside the batch's transaction. */
    async write(trx: Queries, views: PageViewRecord[]): Promise<void> {
      const counts = new Map<string, { domain_id: string; day: number; path: string; traffic: string; n: number }>();
      for (const v of views) {
        const row = { domain_id: v.domainId, day: dayOf(v.at), path: v.path, traffic: v.traffic, n: 0 };
        const key = JSON.stringify([row.domain_id, row.day, row.path, row.traffic]);
        const seen = counts.get(key) ?? row;
        seen.n += 1;
        counts.set(key, seen);
      }
      // In one order (by key), so two API replicas' batches lock the rows they share in the same
      // order: in arrival order they could deadlock on PostgreSQL.
      const keyOf = (r: { domain_id: string; day: number; path: string; traffic: string }) => [r.domain_id, String(r.day).padStart(12, '0'), r.path, r.traffic].join('\u0000');
      for (const row of [...counts.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))) {
        await trx
          .insertInto('page_view_days')
          .values(row)
          .onConflict((oc) => oc.columns(['domain_id', 'day', 'path', 'traffic']).doUpdateSet({ n: sql<number>`page_view_days.n + ${row.n}` }))
          .execute();
      }
      const visitors = views
        .map((v) => ({ domain_id: v.domainId, day: dayOf(v.at), path: v.path, traffic: v.traffic, visitor: v.visitor }))
        .sort((a, b) => {
          const [x, y] = [`${keyOf(a)}\u0000${a.visitor}`, `${keyOf(b)}\u0000${b.visitor}`];
          return x < y ? -1 : x > y ? 1 : 0;
        });
      for (let i = 0; i < visitors.length; i += WRITE_CHUNK) {
        await trx
          .insertInto('page_visitors')
          .values(visitors.slice(i, i + WRITE_CHUNK))
          .onConflict((oc) => oc.columns(['domain_id', 'day', 'path', 'traffic', 'visitor']).doNothing())
          .execute();
      }
    },

    async viewStats(domainId: string, range: TimeRange): Promise<TrafficReport> {
      const { first, last } = days(range);
      const base = db.selectFrom('page_view_days').where('domain_id', '=', domainId).where('day', '>=', first).where('day', '<=', last);
      const byPath = await base.select(['path as key', 'traffic', sql<number>`sum(n)`.as('n')]).groupBy(['path', 'traffic']).execute();
      const byDay = await base.select(['day as key', 'traffic', sql<number>`sum(n)`.as('n')]).groupBy(['day', 'traffic']).execute();
      const site = tally<number>(byDay.map((r) => ({ ...r, key: 0 }))).get(0) ?? { human: 0, ai: 0, total: 0 };
      return report(tally<string>(byPath), tally<number>(byDay.map((r) => ({ ...r, key: num(r.key) }))), site);
    },

    async visitorStats(domainId: string, range: TimeRange): Promise<TrafficReport> {
      const { first, last } = days(range);
      const base = db.selectFrom('page_visitors').where('domain_id', '=', domainId).where('day', '>=', first).where('day', '<=', last);
      const distinct = sql<number>`count(distinct visitor)`.as('n');
      // Distinct within each day (a hash means nothing across days), then summed over the days.
      const pathDays = await base.select(['path', 'day', 'traffic', distinct]).groupBy(['path', 'day', 'traffic']).execute();
      const pathDayTotals = await base.select(['path', 'day', distinct]).groupBy(['path', 'day']).execute();
      const siteDays = await base.select(['day', 'traffic', distinct]).groupBy(['day', 'traffic']).execute();
      const siteDayTotals = await base.select(['day', distinct]).groupBy(['day']).execute();

      const pathTotals = new Map<string, number>();
      for (const r of pathDayTotals) pathTotals.set(r.path, (pathTotals.get(r.path) ?? 0) + num(r.n));
      const dayTotals = new Map<number, number>(siteDayTotals.map((r) => [num(r.day), num(r.n)]));
      const perDay = tally<number>(siteDays.map((r) => ({ key: num(r.day), traffic: r.traffic, n: r.n })), dayTotals);
      const site: TrafficCount = { human: 0, ai: 0, total: 0 };
      for (const c of perDay.values()) {
        site.human += c.human;
        site.ai += c.ai;
        site.total += c.total;
      }
      return report(tally<string>(pathDays.map((r) => ({ key: r.path, traffic: r.traffic, n: r.n })), pathTotals), perDay, site);
    },

    async visitorSalt(day: number): Promise<string> {
      await db
        .insertInto('visitor_salts')
        .values({ day, salt: randomBytes(32).toString('base64url') })
        .onConflict((oc) => oc.column('day').doNothing())
        .execute();
      // Yesterday's salt goes as soon as today's exists: no hash of an earlier day can be made again.
      await db.deleteFrom('visitor_salts').where('day', '<', day).execute();
      const row = await db.selectFrom('visitor_salts').select('salt').where('day', '=', day).executeTakeFirst();
      // A replica that already moved on deleted this day's salt: a fresh one hashes today's visitors as well.
      return row?.salt ?? randomBytes(32).toString('base64url');
    },

    /** Deletes the days before `before`'s day, in slices; returns how many rows went. */
    async purge(before: number): Promise<number> {
      const cut = dayOf(before);
      const rowAddress = sql.raw(database.dialect === 'postgres' ? 'ctid' : 'rowid');
      let removed = 0;
      for (const table of ['page_view_days', 'page_visitors'] as const) {
        for (;;) {
          const name = sql.table(table);
          const result = await sql`delete from ${name} where ${rowAddress} in (select ${rowAddress} from ${name} where day < ${cut} limit ${sql.lit(PURGE_SLICE)})`.execute(db);
          const changes = num(result.numAffectedRows);
          removed += changes;
          if (changes < PURGE_SLICE) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      return removed;
    },
  };
}
