import * as v from 'valibot';
import { bool, fromBool, json, parseJson, type Database, type Queries } from '../db/index.js';
import type { PullsTable } from '../db/schema.js';
import { hashSecret, sameHash } from '../tenants/keys.js';

/** The largest pull request number the table holds (a 32-bit integer column). */
const MAX_PULL_NUMBER = 2_147_483_647;

/**
 * A pull request of the embedded local forge: the branch lives in the local repository, the record here.
 * Declared once: `PullRecord` is its type, and the API's JSON view (api/pulls/operations.ts) is built from it.
 */
export const PullRecordSchema = v.object({
  number: v.pipe(v.number(), v.integer()),
  projectId: v.string(),
  jobId: v.string(),
  /** Job branch (head) and the project's base branch. */
  branch: v.string(),
  base: v.string(),
  title: v.string(),
  body: v.string(),
  draft: v.boolean(),
  state: v.picklist(['open', 'closed']),
  comments: v.array(v.object({ body: v.string(), createdAt: v.string() })),
  /** SHA-256 of the view token in this pull request's link (see view-token.ts). */
  viewTokenHash: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type PullRecord = v.InferOutput<typeof PullRecordSchema>;

/** Whether `token` is the one in this pull request's link (constant-time). */
export function canViewWithToken(pull: PullRecord, token: string): boolean {
  return pull.viewTokenHash !== undefined && sameHash(pull.viewTokenHash, hashSecret(token));
}

export type NewPull = Omit<PullRecord, 'number' | 'state' | 'comments' | 'viewTokenHash' | 'createdAt' | 'updatedAt'>;

const pullOf = (row: PullsTable): PullRecord => ({
  number: row.number,
  projectId: row.project_id,
  jobId: row.job_id,
  branch: row.branch,
  base: row.base,
  title: row.title,
  body: row.body,
  draft: fromBool(row.draft),
  state: row.state === 'closed' ? 'closed' : 'open',
  comments: parseJson<PullRecord['comments']>(row.comments_json),
  ...(row.view_token_hash ? { viewTokenHash: row.view_token_hash } : {}),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const pullRow = (pull: PullRecord): PullsTable => ({
  project_id: pull.projectId,
  number: pull.number,
  job_id: pull.jobId,
  branch: pull.branch,
  base: pull.base,
  title: pull.title,
  body: pull.body,
  draft: bool(pull.draft),
  state: pull.state,
  comments_json: json(pull.comments),
  view_token_hash: pull.viewTokenHash ?? null,
  created_at: pull.createdAt,
  updated_at: pull.updatedAt,
});

/** PostgreSQL's unique violation: two transactions took the same next number; one runs again. */
const isUniqueViolation = (err: unknown) => err instanceof Error && 'code' in err && err.code === '23505';

/** Pull-request records of every project, numbered per project from 1. */
export class PullStore {
  constructor(private readonly database: Database) {}

  private async one(q: Queries, projectId: string, number: number): Promise<PullRecord | undefined> {
    const row = await q.selectFrom('pulls').selectAll().where('project_id', '=', projectId).where('number', '=', number).executeTakeFirst();
    return row && pullOf(row);
  }

  private async openOf(q: Queries, projectId: string, branch: string): Promise<PullRecord | undefined> {
    const row = await q
      .selectFrom('pulls')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('branch', '=', branch)
      .where('state', '=', 'open')
      .orderBy('number')
      .limit(1)
      .executeTakeFirst();
    return row && pullOf(row);
  }

  /** The pull request of that number; none for a number the table cannot hold (not a whole number from 1 to 2^31-1). */
  async get(projectId: string, number: number): Promise<PullRecord | undefined> {
    if (!Number.isInteger(number) || number < 1 || number > MAX_PULL_NUMBER) return undefined;
    return this.one(this.database.queries, projectId, number);
  }

  findOpen(projectId: string, branch: string): Promise<PullRecord | undefined> {
    return this.openOf(this.database.queries, projectId, branch);
  }

  /** Creates the record unless an open one exists for the branch (then returns that one, created: false). */
  async openOnce(pull: NewPull): Promise<{ pull: PullRecord; created: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.database.transaction(async (trx) => {
          const existing = await this.openOf(trx, pull.projectId, pull.branch);
          if (existing) return { pull: existing, created: false };
          const last = await trx.selectFrom('pulls').select((eb) => eb.fn.max('number').as('n')).where('project_id', '=', pull.projectId).executeTakeFirst();
          const now = new Date().toISOString();
          const record: PullRecord = { ...pull, number: Number(last?.n ?? 0) + 1, state: 'open', comments: [], createdAt: now, updatedAt: now };
          await trx.insertInto('pulls').values(pullRow(record)).execute();
          return { pull: record, created: true };
        });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 10) throw err;
      }
    }
  }

  /** Applies a change to one record in one transaction; returns the updated record. */
  async update(projectId: string, number: number, change: (pull: PullRecord) => void): Promise<PullRecord | undefined> {
    return this.database.transaction(async (trx) => {
      const pull = await this.one(trx, projectId, number);
      if (!pull) return undefined;
      change(pull);
      pull.updatedAt = new Date().toISOString();
      const { project_id: _p, number: _n, ...fields } = pullRow(pull);
      await trx.updateTable('pulls').set(fields).where('project_id', '=', projectId).where('number', '=', number).execute();
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
