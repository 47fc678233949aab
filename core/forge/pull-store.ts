import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { hashSecret, sameHash } from '../tenants/keys.js';

/** A pull request of the embedded local forge: the branch lives in the local repository, the record here. */
export interface PullRecord {
  number: number;
  projectId: string;
  jobId: string;
  /** Job branch (head) and the project's base branch. */
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: 'open' | 'closed';
  comments: Array<{ body: string; createdAt: string }>;
  /** SHA-256 of the view token in this pull request's link (see view-token.ts). */
  viewTokenHash?: string;
  createdAt: string;
  updatedAt: string;
}

/** Whether `token` is the one in this pull request's link (constant-time). */
export function canViewWithToken(pull: PullRecord, token: string): boolean {
  return pull.viewTokenHash !== undefined && sameHash(pull.viewTokenHash, hashSecret(token));
}

export type NewPull = Omit<PullRecord, 'number' | 'state' | 'comments' | 'viewTokenHash' | 'createdAt' | 'updatedAt'>;

const SCHEMA = `
  CREATE TABLE pulls (
    project_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    branch TEXT NOT NULL,
    state TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project_id, number)
  );
  CREATE INDEX pulls_by_branch ON pulls (project_id, branch, state);
`;

const pullOf = (row: unknown): PullRecord | undefined => {
  const body = bodyOf(row);
  return body === undefined ? undefined : (JSON.parse(body) as PullRecord);
};

/** Pull-request records of every project in `pulls.db` under the data directory, numbered per project. */
export class PullStore {
  private readonly db: SqliteDatabase;

  constructor(dataDir: string) {
    this.db = openDatabase(path.join(dataDir, 'pulls.db'), { durability: 'full', schema: SCHEMA });
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  private save(pull: PullRecord, verb: 'INSERT' | 'REPLACE'): void {
    this.sql(`${verb} INTO pulls (project_id, number, branch, state, body) VALUES (?, ?, ?, ?, ?)`).run(
      pull.projectId,
      pull.number,
      pull.branch,
      pull.state,
      JSON.stringify(pull),
    );
  }

  async get(projectId: string, number: number): Promise<PullRecord | undefined> {
    return pullOf(this.sql('SELECT body FROM pulls WHERE project_id = ? AND number = ?').get(projectId, number));
  }

  async findOpen(projectId: string, branch: string): Promise<PullRecord | undefined> {
    return pullOf(this.sql("SELECT body FROM pulls WHERE project_id = ? AND branch = ? AND state = 'open' ORDER BY number LIMIT 1").get(projectId, branch));
  }

  /** Creates the record unless an open one exists for the branch (then returns that one, created: false). */
  async openOnce(pull: NewPull): Promise<{ pull: PullRecord; created: boolean }> {
    return writeTransaction(this.db, () => {
        const existing = pullOf(
          this.sql("SELECT body FROM pulls WHERE project_id = ? AND branch = ? AND state = 'open' ORDER BY number LIMIT 1").get(pull.projectId, pull.branch),
        );
        if (existing) return { pull: existing, created: false };
        const last = this.sql('SELECT MAX(number) AS n FROM pulls WHERE project_id = ?').pluck().get(pull.projectId);
        const now = new Date().toISOString();
        const number = (typeof last === 'number' ? last : 0) + 1;
        const record: PullRecord = { ...pull, number, state: 'open', comments: [], createdAt: now, updatedAt: now };
        this.save(record, 'INSERT');
        return { pull: record, created: true };
      });
  }

  /** Applies a change to one record in one transaction; returns the updated record. */
  async update(projectId: string, number: number, change: (pull: PullRecord) => void): Promise<PullRecord | undefined> {
    return writeTransaction(this.db, () => {
        const pull = pullOf(this.sql('SELECT body FROM pulls WHERE project_id = ? AND number = ?').get(projectId, number));
        if (!pull) return undefined;
        change(pull);
        pull.updatedAt = new Date().toISOString();
        this.save(pull, 'REPLACE');
        return pull;
      });
  }

  /** Records the hash of the pull request's view token, unless it is already the one stored. */
  async keepViewToken(projectId: string, number: number, token: string): Promise<void> {
    const hash = hashSecret(token);
    const pull = await this.get(projectId, number);
    if (!pull || pull.viewTokenHash === hash) return;
    await this.update(projectId, number, (p) => {
      p.viewTokenHash = hash;
    });
  }
}
