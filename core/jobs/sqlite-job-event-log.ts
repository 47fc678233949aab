import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { parseJobEventJson } from './job-event-schema.js';
import { EVENT_PAGE, PURGE_SLICE, type JobEvent, type JobEventLog, type NewJobEvent, type WaitOptions } from './job-events.js';
import { pollForEvents } from './wait-for-events.js';

const SCHEMA = `
  CREATE TABLE job_events (
    job_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    key TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
  );
  CREATE UNIQUE INDEX job_events_by_key ON job_events (job_id, key);
`;

const eventOf = (row: unknown): JobEvent | undefined => {
  const body = bodyOf(row);
  return body === undefined ? undefined : parseJobEventJson(body);
};

/** The embedded default: `job-events.db` beside `jobs.db`, appended by the worker, read by the API. */
export class SqliteJobEventLog implements JobEventLog {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    this.db = openDatabase(file, { durability: 'normal', schema: SCHEMA });
  }

  static inDataDir(dataDir: string): SqliteJobEventLog {
    return new SqliteJobEventLog(path.join(dataDir, 'job-events.db'));
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  async append(event: NewJobEvent): Promise<JobEvent> {
    return writeTransaction(this.db, () => {
      const kept = eventOf(this.sql('SELECT body FROM job_events WHERE job_id = ? AND key = ?').get(event.jobId, event.key));
      if (kept) return kept;
      const row: unknown = this.sql('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM job_events WHERE job_id = ?').get(event.jobId);
      const next = typeof row === 'object' && row !== null && 'next' in row && typeof row.next === 'number' ? row.next : 1;
      const { key, ...rest } = event;
      const stored: JobEvent = { seq: next, ...rest };
      this.sql('INSERT INTO job_events (job_id, seq, key, body) VALUES (?, ?, ?, ?)').run(event.jobId, next, key, JSON.stringify(stored));
      return stored;
    });
  }

  async after(jobId: string, afterSeq: number, limit = EVENT_PAGE): Promise<JobEvent[]> {
    const rows = this.sql('SELECT body FROM job_events WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(jobId, afterSeq, limit);
    return rows.map(eventOf).filter((e): e is JobEvent => e !== undefined);
  }

  async latest(jobId: string): Promise<JobEvent | undefined> {
    return eventOf(this.sql('SELECT body FROM job_events WHERE job_id = ? ORDER BY seq DESC LIMIT 1').get(jobId));
  }

  waitForEvents(jobId: string, afterSeq: number, options: WaitOptions): Promise<boolean> {
    return pollForEvents(this, jobId, afterSeq, options);
  }

  async forget(jobId: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const { changes } = await writeTransaction(this.db, () =>
        this.sql(`DELETE FROM job_events WHERE job_id = ? AND seq IN (SELECT seq FROM job_events WHERE job_id = ? LIMIT ${PURGE_SLICE})`).run(jobId, jobId),
      );
      removed += changes;
      if (changes < PURGE_SLICE) return removed;
      // The event loop serves requests between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
