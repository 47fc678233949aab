import path from 'node:path';
import { isJobMessage, type JobMessage } from '../contracts/agent-job.js';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { parseJobRecordJson } from './job-schema.js';
import type { JobRecord } from './job-record.js';
import { decodeCursor, encodeCursor, isJobRef, type JobListQuery, type JobPage, type JobRef, type JobStore } from './job-store.js';

const SCHEMA = `
  CREATE TABLE jobs (
    project_id TEXT NOT NULL,
    id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    revision INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
  );
  CREATE INDEX jobs_newest_first ON jobs (project_id, created_at DESC, id DESC);
  CREATE TABLE job_messages (
    project_id TEXT NOT NULL,
    job_id TEXT NOT NULL,
    id TEXT NOT NULL,
    prompt TEXT NOT NULL,
    PRIMARY KEY (project_id, job_id, id)
  );
`;

/** Retention finds archived jobs by archive time without reading every record. */
const INDEXES = `
  CREATE INDEX IF NOT EXISTS jobs_by_archive ON jobs (json_extract(body, '$.archivedAt')) WHERE status = 'archived';
`;

const recordOf = (row: unknown): JobRecord | undefined => {
  const body = bodyOf(row);
  return body === undefined ? undefined : parseJobRecordJson(body);
};

/** The embedded default: `jobs.db` under the data directory, written by the API and the worker. */
export class SqliteJobStore implements JobStore {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    this.db = openDatabase(file, { durability: 'normal', schema: SCHEMA, indexes: INDEXES });
  }

  static inDataDir(dataDir: string): SqliteJobStore {
    return new SqliteJobStore(path.join(dataDir, 'jobs.db'));
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  private write(record: JobRecord, verb: 'INSERT OR REPLACE' | 'INSERT OR IGNORE'): void {
    this.sql(`${verb} INTO jobs (project_id, id, created_at, status, revision, body) VALUES (?, ?, ?, ?, ?, ?)`).run(
      record.projectId,
      record.id,
      record.createdAt,
      record.status,
      record.revision,
      JSON.stringify(record),
    );
  }

  async put(record: JobRecord): Promise<JobRecord> {
    return writeTransaction(this.db, () => {
        const current = recordOf(this.sql('SELECT body FROM jobs WHERE project_id = ? AND id = ?').get(record.projectId, record.id));
        if (current && current.revision > record.revision) return current;
        this.write(record, 'INSERT OR REPLACE');
        return record;
      });
  }

  async create(record: JobRecord): Promise<void> {
    // Never replaces a state record that got there first (it is newer).
    await writeTransaction(this.db, () => this.write(record, 'INSERT OR IGNORE'));
  }

  async putMessage(projectId: string, jobId: string, message: JobMessage): Promise<void> {
    // The first write of an id wins: a retried request cannot change a message already sent.
    await writeTransaction(this.db, () =>
      this.sql('INSERT OR IGNORE INTO job_messages (project_id, job_id, id, prompt) VALUES (?, ?, ?, ?)').run(projectId, jobId, message.id, message.prompt),
    );
  }

  async getMessages(projectId: string, jobId: string, ids: string[]): Promise<JobMessage[]> {
    const read = this.sql('SELECT id, prompt FROM job_messages WHERE project_id = ? AND job_id = ? AND id = ?');
    return ids.map((id) => read.get(projectId, jobId, id)).filter(isJobMessage);
  }

  async remove(projectId: string, jobId: string): Promise<void> {
    await writeTransaction(this.db, () => {
      this.sql('DELETE FROM jobs WHERE project_id = ? AND id = ?').run(projectId, jobId);
      this.sql('DELETE FROM job_messages WHERE project_id = ? AND job_id = ?').run(projectId, jobId);
    });
  }

  async get(projectId: string, jobId: string): Promise<JobRecord | undefined> {
    return recordOf(this.sql('SELECT body FROM jobs WHERE project_id = ? AND id = ?').get(projectId, jobId));
  }

  async archivedBefore(before: string, limit: number): Promise<JobRef[]> {
    return this.sql(
      `SELECT project_id AS projectId, id AS jobId FROM jobs
       WHERE status = 'archived' AND json_extract(body, '$.archivedAt') < ?
       ORDER BY json_extract(body, '$.archivedAt') LIMIT ?`,
    )
      .all(before, limit)
      .filter(isJobRef);
  }

  async list(projectId: string, query: JobListQuery): Promise<JobPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    // Newest first by (created_at, id), the order compareNewestFirst defines; one row more tells whether a next page exists.
    const rows = this.sql(
      `SELECT body FROM jobs WHERE project_id = ?
         AND (? IS NULL OR status = ?)
         AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(
      projectId,
      query.status ?? null,
      query.status ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.id ?? null,
      query.limit + 1,
    );
    const records = rows.map(recordOf).filter((r): r is JobRecord => r !== undefined);
    const jobs = records.slice(0, query.limit);
    const last = jobs.at(-1);
    return { jobs, nextCursor: records.length > query.limit && last ? encodeCursor(last) : null };
  }
}
