import { sql, type RawBuilder } from 'kysely';
import { bool, compiledShapes, json, type Database } from '../db/index.js';
import { parseAnswerRecord } from './answer-record.js';
import { pageViewStore } from './page-views.js';
import type {
  AnalyticsEvent,
  AnalyticsStore,
  AnswerRecord,
  AnswerDay,
  CallerStat,
  CategoryStat,
  FeedbackView,
  GapQuestion,
  ListPage,
  ListQuery,
  PageFeedback,
  SearchStat,
  TimeRange,
} from './types.js';

const DAY_MS = 86_400_000;
const PURGE_SLICE = 500;
/** Rows per multi-row insert: well inside either engine's limit on parameters. */
const WRITE_CHUNK = 500;
/** The most answers per multi-row insert. */
const ANSWER_CHUNK = 256;
/**
 * Rows of the next multi-row insert of answers: the largest power of two left, at most ANSWER_CHUNK,
 * so a batch of any size runs through a few compiled shapes (1, 2, 4 … 256 rows) in a few statements.
 */
const answerRows = (left: number) => Math.min(2 ** Math.floor(Math.log2(left)), ANSWER_CHUNK);
/** The UTC day an instant falls in, as the instant of its midnight. */
const dayOf = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;

interface GroupCount {
  group: Array<string | null>;
  total: number;
  unanswered: number;
}

/** Counts and sums come back as numbers (SQLite), or as bigint and numeric text (PostgreSQL). */
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

const isAnswer = (r: AnswerRecord | undefined): r is AnswerRecord => r !== undefined;

/**
 * A listing's range with its cursor: nothing later than the cursor's time, and at that very time only
 * ids below the cursor's (ties are rare, so excluding them costs a few rows, never a scan).
 */
function cursorBounds(q: ListQuery): { upper: number; tieAt: number; tieId: string } {
  // Without a cursor, a time no record has: NULL would make the whole condition NULL, and every row fail it.
  if (!q.after) return { upper: q.to, tieAt: -1, tieId: '' };
  return { upper: Math.min(q.to, q.after.at), tieAt: q.after.at, tieId: q.after.id };
}

/** The searches of one query: each spelling's count, the sums, and clicks per page. */
interface QueryTally {
  spellings: Array<{ query: string; n: number }>;
  searches: number;
  hits: number;
  clickedSearches: number;
  lastSearchedAt: number;
  pages: Map<string, number>;
}

/** A search query as readers mean it: case and spacing do not make another query. */
const queryKey = (query: string) => query.toLowerCase().replace(/\s+/g, ' ').trim();

const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/**
 * Analytics in the database. A batch of events is one transaction, the answers' daily counts in
 * `answer_days` written with them, so a count over a month reads a few hundred rows. Each query
 * has its index in migration 004 (bench/analytics.ts measures them).
 */
export function createAnalyticsStore(database: Database): AnalyticsStore {
  const db = database.queries;
  /** A JSON field of the stored answer record, as text. */
  const answerField = (field: string): RawBuilder<string | null> =>
    database.dialect === 'postgres' ? sql`(a.answer_json::json ->> ${sql.lit(field)})` : sql`json_extract(a.answer_json, ${sql.lit(`$.${field}`)})`;
  /** A table's own row address, for deleting rows of a table without a key in slices. */
  const rowAddress = sql.raw(database.dialect === 'postgres' ? 'ctid' : 'rowid');
  const pageViews = pageViewStore(database);

  /**
   * Answers in the range counted per group: the whole days from the daily counts written with the
   * answers, the partial days at either end from the answers themselves.
   */
  async function counts(domainId: string, range: TimeRange, by: 'caller' | 'category'): Promise<Map<string, GroupCount>> {
    const out = new Map<string, GroupCount>();
    const groupBy = by === 'category' ? (['category'] as const) : (['caller', 'surface'] as const);
    const add = (rows: Array<{ caller?: string | null; surface?: string | null; category?: string | null; total: unknown; unanswered: unknown }>) => {
      for (const row of rows) {
        const group = by === 'category' ? [row.category || null] : [row.caller ?? null, row.surface ?? null];
        const key = JSON.stringify(group);
        const seen = out.get(key) ?? { group, total: 0, unanswered: 0 };
        seen.total += num(row.total);
        seen.unanswered += num(row.unanswered);
        out.set(key, seen);
      }
    };
    const exact = async (from: number, to: number) =>
      add(
        await db
          .selectFrom('answers')
          .select(groupBy)
          .select([
            sql<number>`count(*)`.as('total'),
            sql<number>`sum(case when resolution = 'unanswered' then 1 else 0 end)`.as('unanswered'),
          ])
          .where('domain_id', '=', domainId)
          .where('at', '>=', from)
          .where('at', '<=', to)
          .groupBy(groupBy)
          .execute(),
      );
    const firstDay = Math.ceil(range.from / DAY_MS) * DAY_MS;
    const endDay = Math.floor((range.to + 1) / DAY_MS) * DAY_MS;
    if (firstDay >= endDay) {
      await exact(range.from, range.to);
      return out;
    }
    if (range.from < firstDay) await exact(range.from, firstDay - 1);
    if (endDay <= range.to) await exact(endDay, range.to);
    add(
      await db
        .selectFrom('answer_days')
        .select(groupBy)
        .select([sql<number>`sum(n)`.as('total'), sql<number>`sum(case when resolution = 'unanswered' then n else 0 end)`.as('unanswered')])
        .where('domain_id', '=', domainId)
        .where('day', '>=', firstDay)
        .where('day', '<', endDay)
        .groupBy(groupBy)
        .execute(),
    );
    return out;
  }

  // The answers' two statements, compiled once per shape (see `compiledShapes`).
  const ANSWER_COLUMNS = 9;
  const insertAnswers = compiledShapes((rows: number, slot) =>
    db
      .insertInto('answers')
      .values(
        Array.from({ length: rows }, (_, r) => ({
          domain_id: slot(r * ANSWER_COLUMNS),
          id: slot(r * ANSWER_COLUMNS + 1),
          at: slot(r * ANSWER_COLUMNS + 2) as unknown as number,
          thread_id: slot(r * ANSWER_COLUMNS + 3),
          caller: slot(r * ANSWER_COLUMNS + 4),
          surface: slot(r * ANSWER_COLUMNS + 5),
          resolution: slot(r * ANSWER_COLUMNS + 6),
          category: slot(r * ANSWER_COLUMNS + 7),
          answer_json: slot(r * ANSWER_COLUMNS + 8),
        })),
      )
      .onConflict((oc) => oc.columns(['domain_id', 'id']).doNothing())
      .returning(['domain_id', 'id']),
  );
  const addAnswerDay = compiledShapes((_one: 1, slot) =>
    db
      .insertInto('answer_days')
      .values({
        domain_id: slot(0),
        day: slot(1) as unknown as number,
        caller: slot(2),
        surface: slot(3),
        category: slot(4),
        resolution: slot(5),
        n: slot(6) as unknown as number,
      })
      .onConflict((oc) => oc.columns(['domain_id', 'day', 'caller', 'surface', 'category', 'resolution']).doUpdateSet({ n: sql<number>`answer_days.n + excluded.n` })),
  );

  return {
    async write(events: AnalyticsEvent[]): Promise<void> {
      const answers = events.flatMap((e) => (e.kind === 'answer' ? [e.record] : []));
      const searches = events.flatMap((e) => (e.kind === 'search' ? [e.record] : []));
      const clicks = events.flatMap((e) => (e.kind === 'click' ? [e.record] : []));
      const views = events.flatMap((e) => (e.kind === 'view' ? [e.record] : []));
      await database.transaction(async (trx) => {
        await pageViews.write(trx, views);
        // Answers in multi-row statements; a record sent twice is inserted, and counted, once.
        const counts = new Map<string, { domain_id: string; day: number; caller: string; surface: string; category: string; resolution: string; n: number }>();
        for (let i = 0; i < answers.length; ) {
          const chunk = answers.slice(i, (i += answerRows(answers.length - i)));
          const values = chunk.flatMap((r) => [r.domainId, r.id, r.at, r.threadId, r.caller, r.surface, r.resolution, r.category, json(r)]);
          const added = await trx.executeQuery<{ domain_id: string; id: string }>(insertAnswers(chunk.length, values));
          const inserted = new Set(added.rows.map((row) => `${row.domain_id}\n${row.id}`));
          for (const r of chunk) {
            if (!inserted.delete(`${r.domainId}\n${r.id}`)) continue;
            const row = { domain_id: r.domainId, day: dayOf(r.at), caller: r.caller, surface: r.surface, category: r.category ?? '', resolution: r.resolution, n: 0 };
            const key = JSON.stringify([row.domain_id, row.day, row.caller, row.surface, row.category, row.resolution]);
            const seen = counts.get(key) ?? row;
            seen.n += 1;
            counts.set(key, seen);
          }
        }
        // The daily counts, in the same transaction as the answers they count.
        for (const row of counts.values()) {
          await trx.executeQuery(addAnswerDay(1, [row.domain_id, row.day, row.caller, row.surface, row.category, row.resolution, row.n]));
        }
        for (let i = 0; i < searches.length; i += WRITE_CHUNK) {
          await trx
            .insertInto('searches')
            .values(searches.slice(i, i + WRITE_CHUNK).map((r) => ({ domain_id: r.domainId, id: r.id, at: r.at, query: r.query, hits: r.hits, caller: r.caller })))
            .onConflict((oc) => oc.columns(['domain_id', 'id']).doNothing())
            .execute();
        }
        // Each click as it came, whether its search is written yet or not (another replica may write
        // it later): reports join clicks to their searches, so one whose search never comes is never counted.
        for (let i = 0; i < clicks.length; i += WRITE_CHUNK) {
          await trx
            .insertInto('clicks')
            .values(clicks.slice(i, i + WRITE_CHUNK).map((r) => ({ domain_id: r.domainId, search_id: r.searchId, path: r.path, at: r.at })))
            .execute();
        }
      });
    },

    async putFeedback(f) {
      const row = { domain_id: f.domainId, message_id: f.messageId, thread_id: f.threadId, at: f.at, helpful: bool(f.helpful), comment: f.comment };
      await db
        .insertInto('feedback')
        .values(row)
        .onConflict((oc) => oc.columns(['domain_id', 'message_id']).doUpdateSet({ thread_id: row.thread_id, at: row.at, helpful: row.helpful, comment: row.comment }))
        .execute();
    },

    async listAnswers(domainId, q): Promise<ListPage<AnswerRecord>> {
      const { upper, tieAt, tieId } = cursorBounds(q);
      // Newest first by (at, id), the cursor as the upper bound of the index range (an OR would scan from the top);
      // one row more tells whether a next page exists.
      const rows = await db
        .selectFrom('answers')
        .select('answer_json')
        .where('domain_id', '=', domainId)
        .where('at', '>=', q.from)
        .where('at', '<=', upper)
        .where((eb) => eb.not(eb.and([eb('at', '=', tieAt), eb('id', '>=', tieId)])))
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(q.limit + 1)
        .execute();
      const records = rows.map((r) => parseAnswerRecord(r.answer_json)).filter(isAnswer);
      const items = records.slice(0, q.limit);
      const last = items.at(-1);
      return { items, next: records.length > q.limit && last ? { at: last.at, id: last.id } : undefined };
    },

    async threadAnswers(domainId, threadId) {
      const rows = await db
        .selectFrom('answers')
        .select('answer_json')
        .where('domain_id', '=', domainId)
        .where('thread_id', '=', threadId)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map((r) => parseAnswerRecord(r.answer_json)).filter(isAnswer);
    },

    async getAnswer(domainId, id) {
      const row = await db.selectFrom('answers').select('answer_json').where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();
      return row ? parseAnswerRecord(row.answer_json) : undefined;
    },

    async answerDays(domainId, range): Promise<AnswerDay[]> {
      const rows = await db
        .selectFrom('answer_days')
        .select(['day', sql<number>`sum(n)`.as('total'), sql<number>`sum(case when resolution = 'unanswered' then n else 0 end)`.as('unanswered')])
        .where('domain_id', '=', domainId)
        .where('day', '>=', dayOf(range.from))
        .where('day', '<=', dayOf(range.to))
        .groupBy('day')
        .orderBy('day')
        .execute();
      return rows.map((r) => ({ day: num(r.day), total: num(r.total), unanswered: num(r.unanswered) }));
    },

    viewStats: (domainId, range) => pageViews.viewStats(domainId, range),
    visitorStats: (domainId, range) => pageViews.visitorStats(domainId, range),
    visitorSalt: (day) => pageViews.visitorSalt(day),

    async callerStats(domainId, range): Promise<CallerStat[]> {
      const stats = [...(await counts(domainId, range, 'caller')).values()].flatMap<CallerStat>(({ group: [caller, surface], total, unanswered }) => {
        if ((caller !== 'browser' && caller !== 'server' && caller !== 'other') || (surface !== 'assistant' && surface !== 'openai' && surface !== 'mcp')) return [];
        return [{ caller, surface, total, answered: total - unanswered, unanswered }];
      });
      return stats.sort((a, b) => b.total - a.total || byText(a.caller, b.caller) || byText(a.surface, b.surface));
    },

    async categoryStats(domainId, range): Promise<CategoryStat[]> {
      const stats = [...(await counts(domainId, range, 'category')).values()].map(({ group: [category], total, unanswered }) => ({ category: category ?? null, total, unanswered }));
      // Most asked first; among equals no category first, then by name.
      return stats.sort((a, b) => b.total - a.total || byText(a.category, b.category));
    },

    async searchStats(domainId, range): Promise<SearchStat[]> {
      // Per spelling here, per query (`queryKey`) below: the engines lower-case text differently (SQLite only ASCII).
      const rows = await db
        .selectFrom('searches as s')
        .select([
          's.query',
          sql<number>`count(*)`.as('searches'),
          sql<number>`sum(s.hits)`.as('hits'),
          sql<number>`sum(case when exists (select 1 from clicks c where c.domain_id = s.domain_id and c.search_id = s.id) then 1 else 0 end)`.as('clickedSearches'),
          sql<number>`max(s.at)`.as('lastSearchedAt'),
        ])
        .where('s.domain_id', '=', domainId)
        .where('s.at', '>=', range.from)
        .where('s.at', '<=', range.to)
        .groupBy('s.query')
        .execute();
      // The clicks on the period's searches, per spelling and page.
      const clicked = await db
        .selectFrom('clicks as c')
        .innerJoin('searches as s', (join) => join.onRef('s.domain_id', '=', 'c.domain_id').onRef('s.id', '=', 'c.search_id'))
        .select(['s.query', 'c.path', sql<number>`count(*)`.as('n')])
        .where('s.domain_id', '=', domainId)
        .where('s.at', '>=', range.from)
        .where('s.at', '<=', range.to)
        .groupBy(['s.query', 'c.path'])
        .execute();
      const queries = new Map<string, QueryTally>();
      const queryOf = (spelling: string) => {
        const key = queryKey(spelling);
        const seen = queries.get(key) ?? { spellings: [], searches: 0, hits: 0, clickedSearches: 0, lastSearchedAt: 0, pages: new Map<string, number>() };
        queries.set(key, seen);
        return seen;
      };
      for (const row of rows) {
        const q = queryOf(row.query);
        q.spellings.push({ query: row.query, n: num(row.searches) });
        q.searches += num(row.searches);
        q.hits += num(row.hits);
        q.clickedSearches += num(row.clickedSearches);
        q.lastSearchedAt = Math.max(q.lastSearchedAt, num(row.lastSearchedAt));
      }
      for (const row of clicked) {
        const pages = queryOf(row.query).pages;
        pages.set(row.path, (pages.get(row.path) ?? 0) + num(row.n));
      }
      const stats = [...queries.values()].map(
        (q): SearchStat => ({
          // Shown as most readers wrote it.
          query: q.spellings.sort((a, b) => b.n - a.n || byText(a.query, b.query))[0]?.query ?? '',
          searches: q.searches,
          averageHits: q.searches === 0 ? 0 : q.hits / q.searches,
          clickedSearches: q.clickedSearches,
          topClickedPage: [...q.pages].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]?.[0] ?? null,
          lastSearchedAt: q.lastSearchedAt,
        }),
      );
      // Most searched first, then by query (sorted here: the two engines collate text differently).
      return stats.sort((a, b) => b.searches - a.searches || byText(a.query, b.query));
    },

    async listFeedback(domainId, q): Promise<ListPage<FeedbackView>> {
      const { upper, tieAt, tieId } = cursorBounds(q);
      const rows = await db
        .selectFrom('feedback as f')
        .leftJoin('answers as a', (join) => join.onRef('a.domain_id', '=', 'f.domain_id').onRef('a.id', '=', 'f.message_id'))
        .select(['f.domain_id', 'f.message_id', 'f.thread_id', 'f.at', 'f.helpful', 'f.comment', 'a.answer_json'])
        .where('f.domain_id', '=', domainId)
        .where('f.at', '>=', q.from)
        .where('f.at', '<=', upper)
        .where((eb) => eb.not(eb.and([eb('f.at', '=', tieAt), eb('f.message_id', '>=', tieId)])))
        .orderBy('f.at', 'desc')
        .orderBy('f.message_id', 'desc')
        .limit(q.limit + 1)
        .execute();
      const views = rows.map((row): FeedbackView => {
        const answer = row.answer_json === null ? undefined : parseAnswerRecord(row.answer_json);
        return {
          domainId: row.domain_id,
          messageId: row.message_id,
          threadId: row.thread_id,
          at: num(row.at),
          helpful: num(row.helpful) === 1,
          comment: row.comment,
          question: answer?.question ?? null,
          currentPath: answer?.currentPath ?? null,
        };
      });
      const items = views.slice(0, q.limit);
      const last = items.at(-1);
      return { items, next: views.length > q.limit && last ? { at: last.at, id: last.messageId } : undefined };
    },

    async threadFeedback(domainId, threadId) {
      const rows = await db.selectFrom('feedback').selectAll().where('domain_id', '=', domainId).where('thread_id', '=', threadId).execute();
      return rows.map((row) => ({ domainId, messageId: row.message_id, threadId: row.thread_id, helpful: num(row.helpful) === 1, comment: row.comment, at: num(row.at) }));
    },

    async feedbackByPage(domainId, range): Promise<PageFeedback[]> {
      const path = answerField('currentPath');
      const rows = await db
        .selectFrom('feedback as f')
        .leftJoin('answers as a', (join) => join.onRef('a.domain_id', '=', 'f.domain_id').onRef('a.id', '=', 'f.message_id'))
        .select([path.as('path'), sql<number>`sum(f.helpful)`.as('helpful'), sql<number>`sum(1 - f.helpful)`.as('notHelpful')])
        .where('f.domain_id', '=', domainId)
        .where('f.at', '>=', range.from)
        .where('f.at', '<=', range.to)
        .groupBy(path)
        .execute();
      return rows
        .map((row) => ({ path: row.path, helpful: num(row.helpful), notHelpful: num(row.notHelpful) }))
        .sort((a, b) => b.notHelpful - a.notHelpful || b.helpful - a.helpful || byText(a.path, b.path));
    },

    async gapQuestions(domainId, range, max): Promise<GapQuestion[]> {
      const { rows } = await sql<{ answer_json: string; not_helpful: unknown }>`
        select a.answer_json as answer_json, a.at as at, a.id as id, case when f.helpful = 0 then 1 else 0 end as not_helpful
        from answers a left join feedback f on f.domain_id = a.domain_id and f.message_id = a.id
        where a.domain_id = ${domainId} and a.resolution = 'unanswered' and a.at >= ${range.from} and a.at <= ${range.to}
        union
        select a.answer_json, a.at, a.id, 1 from feedback f join answers a on a.domain_id = f.domain_id and a.id = f.message_id
        where f.domain_id = ${domainId} and f.helpful = 0 and a.resolution = 'answered' and a.at >= ${range.from} and a.at <= ${range.to}
        order by at desc, id desc limit ${max}`.execute(db);
      return rows.flatMap((row) => {
        const record = parseAnswerRecord(row.answer_json);
        return record ? [{ record, notHelpful: num(row.not_helpful) === 1 }] : [];
      });
    },

    async putGapJob(job) {
      await db
        .insertInto('gap_jobs')
        .values({ domain_id: job.domainId, gap_id: job.gapId, project_id: job.projectId, job_id: job.jobId, at: job.at })
        .onConflict((oc) => oc.columns(['domain_id', 'job_id']).doUpdateSet({ gap_id: job.gapId, project_id: job.projectId, at: job.at }))
        .execute();
    },

    async gapJobs(domainId) {
      const rows = await db
        .selectFrom('gap_jobs')
        .select(['gap_id', 'project_id', 'job_id', 'at'])
        .where('domain_id', '=', domainId)
        .orderBy('at')
        .orderBy('job_id')
        .execute();
      return rows.map((row) => ({ domainId, gapId: row.gap_id, projectId: row.project_id, jobId: row.job_id, at: num(row.at) }));
    },

    async purge(before: number): Promise<number> {
      // Answers go by whole days, with their daily counts: a day is counted or deleted entirely.
      const dayCut = dayOf(before);
      await db.deleteFrom('answer_days').where('day', '<', dayCut).execute();
      let removed = 0;
      for (const [table, cut] of [['answers', dayCut], ['searches', before], ['clicks', before], ['feedback', before], ['gap_jobs', before]] as const) {
        // In slices, each its own statement, with the event loop free between: a purge never stalls requests.
        for (;;) {
          const name = sql.table(table);
          const result = await sql`delete from ${name} where ${rowAddress} in (select ${rowAddress} from ${name} where at < ${cut} limit ${sql.lit(PURGE_SLICE)})`.execute(db);
          const changes = num(result.numAffectedRows);
          removed += changes;
          if (changes < PURGE_SLICE) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      return removed + (await pageViews.purge(before));
    },

    ping: () => database.ping(),
  };
}
