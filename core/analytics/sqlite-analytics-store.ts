import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { parseAnswerRecord } from './answer-record.js';
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

// Each index serves one query of the analytics API; the bench (bench/analytics.ts) measures them.
const SCHEMA = `
  CREATE TABLE answers (
    domain_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at INTEGER NOT NULL,
    thread_id TEXT,
    caller TEXT NOT NULL,
    surface TEXT NOT NULL,
    resolution TEXT NOT NULL,
    category TEXT,
    body TEXT NOT NULL,
    PRIMARY KEY (domain_id, id)
  );
  CREATE INDEX answers_newest_first ON answers (domain_id, at DESC, id DESC);
  CREATE INDEX answers_by_caller ON answers (domain_id, at, caller, surface, resolution);
  CREATE INDEX answers_by_category ON answers (domain_id, at, category, resolution);
  CREATE INDEX answers_unanswered ON answers (domain_id, resolution, at);
  CREATE INDEX answers_of_thread ON answers (domain_id, thread_id, at);
  CREATE INDEX answers_by_age ON answers (at);
  CREATE TABLE searches (
    domain_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at INTEGER NOT NULL,
    query TEXT NOT NULL,
    hits INTEGER NOT NULL,
    caller TEXT NOT NULL,
    clicks INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (domain_id, id)
  );
  CREATE INDEX searches_by_time ON searches (domain_id, at);
  CREATE INDEX searches_by_age ON searches (at);
  CREATE TABLE clicks (
    domain_id TEXT NOT NULL,
    search_id TEXT NOT NULL,
    query TEXT NOT NULL,
    path TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX clicks_by_query ON clicks (domain_id, query, at);
  CREATE INDEX clicks_by_age ON clicks (at);
  CREATE TABLE feedback (
    domain_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    helpful INTEGER NOT NULL,
    comment TEXT,
    PRIMARY KEY (domain_id, message_id)
  );
  CREATE INDEX feedback_newest_first ON feedback (domain_id, at DESC, message_id DESC);
  CREATE INDEX feedback_by_age ON feedback (at);
  CREATE TABLE gap_jobs (
    domain_id TEXT NOT NULL,
    gap_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    job_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (domain_id, job_id)
  );
`;

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
    this.db = openDatabase(file, { durability: 'normal', schema: SCHEMA });
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
          this.sql(
            'INSERT OR REPLACE INTO answers (domain_id, id, at, thread_id, caller, surface, resolution, category, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          ).run(r.domainId, r.id, r.at, r.threadId, r.caller, r.surface, r.resolution, r.category, JSON.stringify(r));
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
    const after = q.after;
    // Newest first by (at, id); one row more tells whether a next page exists.
    const rows = this.sql(
      `SELECT body FROM answers WHERE domain_id = ? AND at >= ? AND at <= ?
         AND (? IS NULL OR at < ? OR (at = ? AND id < ?))
       ORDER BY at DESC, id DESC LIMIT ?`,
    ).all(domainId, q.from, q.to, after?.at ?? null, after?.at ?? null, after?.at ?? null, after?.id ?? null, q.limit + 1);
    const records = rows.map(answerOf).filter(isAnswer);
    const items = records.slice(0, q.limit);
    const last = items.at(-1);
    return { items, next: records.length > q.limit && last ? { at: last.at, id: last.id } : undefined };
  }

  async threadAnswers(domainId: string, threadId: string): Promise<AnswerRecord[]> {
    return this.sql('SELECT body FROM answers WHERE domain_id = ? AND thread_id = ? ORDER BY at, id').all(domainId, threadId).map(answerOf).filter(isAnswer);
  }

  async callerStats(domainId: string, range: TimeRange): Promise<CallerStat[]> {
    const rows = this.sql(
      `SELECT caller, surface, COUNT(*) AS total, SUM(resolution = 'answered') AS answered
       FROM answers WHERE domain_id = ? AND at >= ? AND at <= ? GROUP BY caller, surface ORDER BY total DESC, caller, surface`,
    ).all(domainId, range.from, range.to);
    return rows.flatMap((row) => {
      const caller = str(row, 'caller');
      const surface = str(row, 'surface');
      if ((caller !== 'browser' && caller !== 'server' && caller !== 'other') || (surface !== 'assistant' && surface !== 'openai' && surface !== 'mcp')) return [];
      const total = num(row, 'total');
      const answered = num(row, 'answered');
      return [{ caller, surface, total, answered, unanswered: total - answered }];
    });
  }

  async categoryStats(domainId: string, range: TimeRange): Promise<CategoryStat[]> {
    const rows = this.sql(
      `SELECT category, COUNT(*) AS total, SUM(resolution = 'unanswered') AS unanswered
       FROM answers WHERE domain_id = ? AND at >= ? AND at <= ? GROUP BY category ORDER BY total DESC, category`,
    ).all(domainId, range.from, range.to);
    return rows.map((row) => ({ category: str(row, 'category'), total: num(row, 'total'), unanswered: num(row, 'unanswered') }));
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
    const after = q.after;
    const rows = this.sql(
      `SELECT f.domain_id AS domainId, f.message_id AS messageId, f.thread_id AS threadId, f.at AS at, f.helpful AS helpful, f.comment AS comment, a.body AS body
       FROM feedback f LEFT JOIN answers a ON a.domain_id = f.domain_id AND a.id = f.message_id
       WHERE f.domain_id = ? AND f.at >= ? AND f.at <= ?
         AND (? IS NULL OR f.at < ? OR (f.at = ? AND f.message_id < ?))
       ORDER BY f.at DESC, f.message_id DESC LIMIT ?`,
    ).all(domainId, q.from, q.to, after?.at ?? null, after?.at ?? null, after?.at ?? null, after?.id ?? null, q.limit + 1);
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
    return writeTransaction(this.db, () => {
      let removed = 0;
      for (const table of ['answers', 'searches', 'clicks', 'feedback', 'gap_jobs']) {
        removed += this.sql(`DELETE FROM ${table} WHERE at < ?`).run(before).changes;
      }
      return removed;
    });
  }

  async ping(): Promise<void> {
    this.sql('SELECT 1').get();
  }
}
