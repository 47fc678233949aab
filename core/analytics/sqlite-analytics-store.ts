import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { parseAnswerRecord } from './answer-record.js';
import { ANALYTICS_SCHEMA } from './sqlite-schema.js';
import type {
  AnalyticsEvent,
  AnalyticsStore,
  AnswerRecord,
  CallerStat,
  CategoryStat,
  FeedbackRecord,
  FeedbackView,
  GapJob,
  GapQuestion,
  ListPage,
  ListQuery,
  PageFeedback,
  SearchStat,
  TimeRange,
} from './types.js';


const DAY_MS = 86_400_000;
const PURGE_SLICE = 500;
/** The UTC day an instant falls in, as the instant of its midnight. */
const dayOf = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;

interface GroupCount {
  group: Array<string | null>;
  total: number;
  unanswered: number;
}

const field = (row: unknown, key: string): unknown => (typeof row === 'object' && row !== null ? Reflect.get(row, key) : undefined);
const num = (row: unknown, key: string): number => {
  const value = field(row, key);
  return typeof value === 'number' ? value : 0;
};
const str = (row: unknown, key: string): string | null => {
  const value = field(row, key);
  return typeof value === 'string' ? value : null;
};

function answerOf(row: unknown): AnswerRecord | undefined {
  const body = bodyOf(row);
  return body === undefined ? undefined : parseAnswerRecord(body);
}

/**
 * A listing's range with its cursor: nothing later than the cursor's time, and at that very time only
 * ids below the cursor's (ties are rare, so excluding them costs a few rows, never a scan).
 */
function cursorBounds(q: ListQuery): { upper: number; tieAt: number; tieId: string } {
  // Without a cursor, a time no record has: NULL would make the whole condition NULL, and every row fail it.
  if (!q.after) return { upper: q.to, tieAt: -1, tieId: '' };
  return { upper: Math.min(q.to, q.after.at), tieAt: q.after.at, tieId: q.after.id };
}

const isAnswer = (r: AnswerRecord | undefined): r is AnswerRecord => r !== undefined;

function feedbackViewOf(row: unknown): FeedbackView {
  const answer = answerOf(row);
  return {
    domainId: str(row, 'domainId') ?? '',
    messageId: str(row, 'messageId') ?? '',
    threadId: str(row, 'threadId') ?? '',
    at: num(row, 'at'),
    helpful: num(row, 'helpful') === 1,
    comment: str(row, 'comment'),
    question: answer?.question ?? null,
    currentPath: answer?.currentPath ?? null,
  };
}

/** The embedded default: `analytics.db` under the data directory. */
export class SqliteAnalyticsStore implements AnalyticsStore {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    // A power cut may drop the last batch of a busy assistant; never worth an fsync per batch.
    this.db = openDatabase(file, { durability: 'normal', schema: ANALYTICS_SCHEMA });
  }

  static inDataDir(dataDir: string): SqliteAnalyticsStore {
    return new SqliteAnalyticsStore(path.join(dataDir, 'analytics.db'));
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  async write(events: AnalyticsEvent[]): Promise<void> {
    await writeTransaction(this.db, () => {
      for (const event of events) {
        if (event.kind === 'answer') {
          const r = event.record;
          const added = this.sql(
            'INSERT OR IGNORE INTO answers (domain_id, id, at, thread_id, caller, surface, resolution, category, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          ).run(r.domainId, r.id, r.at, r.threadId, r.caller, r.surface, r.resolution, r.category, JSON.stringify(r));
          if (added.changes === 0) continue;
          this.sql(
            `INSERT INTO answer_days (domain_id, day, caller, surface, category, resolution, n) VALUES (?, ?, ?, ?, ?, ?, 1)
             ON CONFLICT (domain_id, day, caller, surface, category, resolution) DO UPDATE SET n = n + 1`,
          ).run(r.domainId, dayOf(r.at), r.caller, r.surface, r.category ?? '', r.resolution);
        } else if (event.kind === 'search') {
          const r = event.record;
          this.sql('INSERT OR IGNORE INTO searches (domain_id, id, at, query, hits, caller) VALUES (?, ?, ?, ?, ?, ?)').run(
            r.domainId,
            r.id,
            r.at,
            r.query,
            r.hits,
            r.caller,
          );
        } else {
          const r = event.record;
          const found = this.sql('UPDATE searches SET clicks = clicks + 1 WHERE domain_id = ? AND id = ?').run(r.domainId, r.searchId);
          if (found.changes === 0) continue;
          this.sql('INSERT INTO clicks (domain_id, search_id, query, path, at) SELECT domain_id, id, query, ?, ? FROM searches WHERE domain_id = ? AND id = ?').run(
            r.path,
            r.at,
            r.domainId,
            r.searchId,
          );
        }
      }
    });
  }

  async putFeedback(f: FeedbackRecord): Promise<void> {
    await writeTransaction(this.db, () =>
      this.sql('INSERT OR REPLACE INTO feedback (domain_id, message_id, thread_id, at, helpful, comment) VALUES (?, ?, ?, ?, ?, ?)').run(
        f.domainId,
        f.messageId,
        f.threadId,
        f.at,
        f.helpful ? 1 : 0,
        f.comment,
      ),
    );
  }

  async listAnswers(domainId: string, q: ListQuery): Promise<ListPage<AnswerRecord>> {
    const { upper, tieAt, tieId } = cursorBounds(q);
    // Newest first by (at, id), the cursor as the upper bound of the index range (an OR would scan from the top);
    // one row more tells whether a next page exists.
    const rows = this.sql(
      `SELECT body FROM answers WHERE domain_id = ? AND at >= ? AND at <= ? AND NOT (at = ? AND id >= ?)
       ORDER BY at DESC, id DESC LIMIT ?`,
    ).all(domainId, q.from, upper, tieAt, tieId, q.limit + 1);
    const records = rows.map(answerOf).filter(isAnswer);
    const items = records.slice(0, q.limit);
    const last = items.at(-1);
    return { items, next: records.length > q.limit && last ? { at: last.at, id: last.id } : undefined };
  }

  async threadAnswers(domainId: string, threadId: string): Promise<AnswerRecord[]> {
    return this.sql('SELECT body FROM answers WHERE domain_id = ? AND thread_id = ? ORDER BY at, id').all(domainId, threadId).map(answerOf).filter(isAnswer);
  }

  /**
   * Answers in the range counted per group: the whole days from the daily counts written with the
   * answers, the partial days at either end from the answers themselves, so a month costs a few
   * hundred rows read, not one per answer.
   */
  private counts(domainId: string, range: TimeRange, by: 'caller, surface' | 'category'): Map<string, GroupCount> {
    const out = new Map<string, GroupCount>();
    const add = (rows: unknown[]) => {
      for (const row of rows) {
        const group = by === 'category' ? [str(row, 'category') || null] : [str(row, 'caller'), str(row, 'surface')];
        const key = JSON.stringify(group);
        const seen = out.get(key) ?? { group, total: 0, unanswered: 0 };
        seen.total += num(row, 'total');
        seen.unanswered += num(row, 'unanswered');
        out.set(key, seen);
      }
    };
    const exact = (from: number, to: number) =>
      add(
        this.sql(
          `SELECT ${by}, COUNT(*) AS total, SUM(resolution = 'unanswered') AS unanswered
           FROM answers WHERE domain_id = ? AND at >= ? AND at <= ? GROUP BY ${by}`,
        ).all(domainId, from, to),
      );
    const firstDay = Math.ceil(range.from / DAY_MS) * DAY_MS;
    const endDay = Math.floor((range.to + 1) / DAY_MS) * DAY_MS;
    if (firstDay >= endDay) {
      exact(range.from, range.to);
      return out;
    }
    if (range.from < firstDay) exact(range.from, firstDay - 1);
    if (endDay <= range.to) exact(endDay, range.to);
    add(
      this.sql(
        `SELECT ${by}, SUM(n) AS total, SUM(CASE WHEN resolution = 'unanswered' THEN n ELSE 0 END) AS unanswered
         FROM answer_days WHERE domain_id = ? AND day >= ? AND day < ? GROUP BY ${by}`,
      ).all(domainId, firstDay, endDay),
    );
    return out;
  }

  async callerStats(domainId: string, range: TimeRange): Promise<CallerStat[]> {
    const stats = [...this.counts(domainId, range, 'caller, surface').values()].flatMap<CallerStat>(({ group: [caller, surface], total, unanswered }) => {
      if ((caller !== 'browser' && caller !== 'server' && caller !== 'other') || (surface !== 'assistant' && surface !== 'openai' && surface !== 'mcp')) return [];
      return [{ caller, surface, total, answered: total - unanswered, unanswered }];
    });
    return stats.sort((a, b) => b.total - a.total || (a.caller < b.caller ? -1 : a.caller > b.caller ? 1 : a.surface < b.surface ? -1 : 1));
  }

  async categoryStats(domainId: string, range: TimeRange): Promise<CategoryStat[]> {
    const stats = [...this.counts(domainId, range, 'category').values()].map(({ group: [category], total, unanswered }) => ({ category: category ?? null, total, unanswered }));
    // Most asked first; among equals no category first, then by name.
    return stats.sort((a, b) => b.total - a.total || (a.category === null ? -1 : b.category === null ? 1 : a.category < b.category ? -1 : 1));
  }

  async searchStats(domainId: string, range: TimeRange): Promise<SearchStat[]> {
    const rows = this.sql(
      `SELECT query, COUNT(*) AS searches, AVG(hits) AS averageHits, SUM(clicks > 0) AS clickedSearches, MAX(at) AS lastSearchedAt
       FROM searches WHERE domain_id = ? AND at >= ? AND at <= ? GROUP BY query ORDER BY searches DESC, query`,
    ).all(domainId, range.from, range.to);
    const topClick = this.sql(
      'SELECT path, COUNT(*) AS n FROM clicks WHERE domain_id = ? AND query = ? AND at >= ? AND at <= ? GROUP BY path ORDER BY n DESC, path LIMIT 1',
    );
    return rows.map((row) => {
      const query = str(row, 'query') ?? '';
      const clickedSearches = num(row, 'clickedSearches');
      return {
        query,
        searches: num(row, 'searches'),
        averageHits: num(row, 'averageHits'),
        clickedSearches,
        topClickedPage: clickedSearches > 0 ? str(topClick.get(domainId, query, range.from, range.to), 'path') : null,
        lastSearchedAt: num(row, 'lastSearchedAt'),
      };
    });
  }

  async listFeedback(domainId: string, q: ListQuery): Promise<ListPage<FeedbackView>> {
    const { upper, tieAt, tieId } = cursorBounds(q);
    const rows = this.sql(
      `SELECT f.domain_id AS domainId, f.message_id AS messageId, f.thread_id AS threadId, f.at AS at, f.helpful AS helpful, f.comment AS comment, a.body AS body
       FROM feedback f LEFT JOIN answers a ON a.domain_id = f.domain_id AND a.id = f.message_id
       WHERE f.domain_id = ? AND f.at >= ? AND f.at <= ? AND NOT (f.at = ? AND f.message_id >= ?)
       ORDER BY f.at DESC, f.message_id DESC LIMIT ?`,
    ).all(domainId, q.from, upper, tieAt, tieId, q.limit + 1);
    const views = rows.map(feedbackViewOf);
    const items = views.slice(0, q.limit);
    const last = items.at(-1);
    return { items, next: views.length > q.limit && last ? { at: last.at, id: last.messageId } : undefined };
  }

  async feedbackByPage(domainId: string, range: TimeRange): Promise<PageFeedback[]> {
    const rows = this.sql(
      `SELECT json_extract(a.body, '$.currentPath') AS path, SUM(f.helpful) AS helpful, SUM(1 - f.helpful) AS notHelpful
       FROM feedback f LEFT JOIN answers a ON a.domain_id = f.domain_id AND a.id = f.message_id
       WHERE f.domain_id = ? AND f.at >= ? AND f.at <= ?
       GROUP BY path ORDER BY notHelpful DESC, helpful DESC, path`,
    ).all(domainId, range.from, range.to);
    return rows.map((row) => ({ path: str(row, 'path'), helpful: num(row, 'helpful'), notHelpful: num(row, 'notHelpful') }));
  }

  async gapQuestions(domainId: string, range: TimeRange, max: number): Promise<GapQuestion[]> {
    const rows = this.sql(
      `SELECT a.body AS body, a.at AS at, a.id AS id, f.helpful = 0 AS notHelpful
       FROM answers a LEFT JOIN feedback f ON f.domain_id = a.domain_id AND f.message_id = a.id
       WHERE a.domain_id = ? AND a.resolution = 'unanswered' AND a.at >= ? AND a.at <= ?
       UNION
       SELECT a.body, a.at, a.id, 1 FROM feedback f JOIN answers a ON a.domain_id = f.domain_id AND a.id = f.message_id
       WHERE f.domain_id = ? AND f.helpful = 0 AND a.resolution = 'answered' AND a.at >= ? AND a.at <= ?
       ORDER BY at DESC, id DESC LIMIT ?`,
    ).all(domainId, range.from, range.to, domainId, range.from, range.to, max);
    return rows.flatMap((row) => {
      const record = answerOf(row);
      return record ? [{ record, notHelpful: num(row, 'notHelpful') === 1 }] : [];
    });
  }

  async putGapJob(job: GapJob): Promise<void> {
    await writeTransaction(this.db, () =>
      this.sql('INSERT OR REPLACE INTO gap_jobs (domain_id, gap_id, project_id, job_id, at) VALUES (?, ?, ?, ?, ?)').run(
        job.domainId,
        job.gapId,
        job.projectId,
        job.jobId,
        job.at,
      ),
    );
  }

  async gapJobs(domainId: string): Promise<GapJob[]> {
    return this.sql('SELECT gap_id AS gapId, project_id AS projectId, job_id AS jobId, at FROM gap_jobs WHERE domain_id = ? ORDER BY at, job_id')
      .all(domainId)
      .map((row) => ({ domainId, gapId: str(row, 'gapId') ?? '', projectId: str(row, 'projectId') ?? '', jobId: str(row, 'jobId') ?? '', at: num(row, 'at') }));
  }

  async purge(before: number): Promise<number> {
    // Answers go by whole days, with their daily counts: a day is counted or deleted entirely.
    const dayCut = dayOf(before);
    await writeTransaction(this.db, () => this.sql('DELETE FROM answer_days WHERE day < ?').run(dayCut));
    let removed = 0;
    for (const [table, cut] of [['answers', dayCut], ['searches', before], ['clicks', before], ['feedback', before], ['gap_jobs', before]] as const) {
      // In slices, each its own transaction, with the event loop free between: a purge never stalls requests.
      for (;;) {
        const { changes } = await writeTransaction(this.db, () =>
          this.sql(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE at < ? LIMIT ${PURGE_SLICE})`).run(cut),
        );
        removed += changes;
        if (changes < PURGE_SLICE) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return removed;
  }

  async ping(): Promise<void> {
    this.sql('SELECT 1').get();
  }
}
