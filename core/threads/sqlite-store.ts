import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { DAY_MS, type ThreadAppend, type ThreadExchange, type ThreadRef, type ThreadStore, type ThreadTranscript } from './types.js';

const SCHEMA = `
  CREATE TABLE threads (
    org_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    domain_id TEXT NOT NULL,
    key_hash TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (org_id, thread_id)
  );
  CREATE INDEX threads_by_age ON threads (updated_at);
  CREATE TABLE exchanges (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX exchanges_of_thread ON exchanges (org_id, thread_id, seq);
`;

interface ThreadRow {
  domainId: string;
  keyHash?: string;
  createdAt: string;
  updatedAt: string;
}

function threadRow(row: unknown): ThreadRow | undefined {
  if (typeof row !== 'object' || row === null || !('domainId' in row && 'createdAt' in row && 'updatedAt' in row)) return undefined;
  const { domainId, createdAt, updatedAt } = row;
  const keyHash = 'keyHash' in row && typeof row.keyHash === 'string' ? { keyHash: row.keyHash } : {};
  return typeof domainId === 'string' && typeof createdAt === 'string' && typeof updatedAt === 'string'
    ? { domainId, ...keyHash, createdAt, updatedAt }
    : undefined;
}

/** A file made before thread keys lacks their column; its threads have no key and cannot be continued. */
function addKeyColumn(db: SqliteDatabase): void {
  const columns: unknown = db.pragma('table_info(threads)');
  if (Array.isArray(columns) && columns.some((c: unknown) => typeof c === 'object' && c !== null && 'name' in c && c.name === 'key_hash')) return;
  try {
    db.exec('ALTER TABLE threads ADD COLUMN key_hash TEXT');
  } catch (err) {
    // Another process added it first.
    if (!(err instanceof Error && /duplicate column/i.test(err.message))) throw err;
  }
}

/**
 * The embedded thread store: `threads.db` under the data directory, a thread row per (org, id) and
 * its exchanges in append order. Appends do not wait for the disk (a power cut may drop the last
 * exchange of a chat, never tear the database). A thread untouched for `retentionDays` is deleted
 * when read, or by the hourly sweep.
 */
export class SqliteThreadStore implements ThreadStore {
  private readonly db: SqliteDatabase;
  private lastSweep = 0;

  constructor(dataDir: string, private readonly retentionDays: number, private readonly now = () => new Date()) {
    this.db = openDatabase(path.join(dataDir, 'threads.db'), { durability: 'normal', schema: SCHEMA });
    addKeyColumn(this.db);
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  async load(orgId: string, threadId: string): Promise<ThreadTranscript | undefined> {
    const thread = threadRow(
      this.sql(
        'SELECT domain_id AS domainId, key_hash AS keyHash, created_at AS createdAt, updated_at AS updatedAt FROM threads WHERE org_id = ? AND thread_id = ?',
      ).get(
        orgId,
        threadId,
      ),
    );
    if (!thread) return undefined;
    if (this.now().getTime() - Date.parse(thread.updatedAt) > this.retentionDays * DAY_MS) {
      await this.forget(orgId, threadId);
      return undefined;
    }
    const rows = this.sql('SELECT body FROM exchanges WHERE org_id = ? AND thread_id = ? ORDER BY seq').all(orgId, threadId);
    const exchanges = rows.flatMap((r) => {
      const body = bodyOf(r);
      return body === undefined ? [] : [JSON.parse(body) as ThreadExchange];
    });
    return { threadId, orgId, ...thread, exchanges };
  }

  private async forget(orgId: string, threadId: string): Promise<void> {
    await writeTransaction(this.db, () => {
        this.sql('DELETE FROM exchanges WHERE org_id = ? AND thread_id = ?').run(orgId, threadId);
        this.sql('DELETE FROM threads WHERE org_id = ? AND thread_id = ?').run(orgId, threadId);
      });
  }

  /** Deletes threads nobody touched within the retention period; at most once an hour, off the request path. */
  private sweepNowAndThen(): void {
    const now = this.now().getTime();
    if (now - this.lastSweep < 3_600_000) return;
    this.lastSweep = now;
    // A failed sweep is retried in an hour; the answer it followed was stored.
    void this.sweep(now).catch(() => undefined);
  }

  /** Deletes every thread last touched before the retention period; returns how many. */
  async sweep(now = this.now().getTime()): Promise<number> {
    const cutoff = new Date(now - this.retentionDays * DAY_MS).toISOString();
    return writeTransaction(this.db, () => {
        this.sql(
          'DELETE FROM exchanges WHERE (org_id, thread_id) IN (SELECT org_id, thread_id FROM threads WHERE updated_at < ?)',
        ).run(cutoff);
        return this.sql('DELETE FROM threads WHERE updated_at < ?').run(cutoff).changes;
      });
  }

  append(ref: ThreadRef, exchange: ThreadExchange): Promise<void> {
    return this.appendAll([{ ref, exchange }]);
  }

  /** One transaction for all: a commit costs more than the rows it writes. */
  async appendAll(entries: ThreadAppend[]): Promise<void> {
    await writeTransaction(this.db, () => {
      for (const { ref, exchange } of entries) {
        // The first exchange creates the thread; each later one renews its retention.
        this.sql(
          `INSERT INTO threads (org_id, thread_id, domain_id, key_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (org_id, thread_id) DO UPDATE SET updated_at = excluded.updated_at`,
        ).run(ref.orgId, ref.threadId, ref.domainId, ref.keyHash ?? null, exchange.startedAt, exchange.finishedAt);
        this.sql('INSERT INTO exchanges (org_id, thread_id, body) VALUES (?, ?, ?)').run(ref.orgId, ref.threadId, JSON.stringify(exchange));
      }
    });
    this.sweepNowAndThen();
  }
}
