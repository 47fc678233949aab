import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { UnavailableError } from '../errors.js';

export type SqliteDatabase = Database.Database;

/**
 * SQLite's own wait for a lock, which blocks the event loop: long enough for another process's
 * ordinary transaction (microseconds, plus an fsync), short enough not to stall requests.
 */
const BUSY_TIMEOUT_MS = 20;
/**
 * How long a write waits, without blocking the event loop, for a process that holds the write lock
 * and does not let go (stopped inside a transaction by SIGSTOP or a debugger); then it fails with
 * StoreBusyError, and nothing already written is lost.
 */
const WRITE_WAIT_MS = 30_000;
const OPEN_TIMEOUT_MS = 30_000;

/** Another process has held the database's write lock for longer than a write waits. */
export class StoreBusyError extends UnavailableError {
  override name = 'StoreBusyError';
  constructor(options: { cause?: unknown } = {}) {
    // The file's path stays in the cause (for the log), out of the client's message.
    super('database', 'the database is busy; retry shortly', options);
  }
}

function isBusy(err: unknown): boolean {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(err.code);
}

export interface DatabaseOptions {
  /**
   * `full`: every commit reaches the disk before it returns (tenants, pull requests: rare writes an
   * operator was told succeeded). `normal`: a power cut may drop the last commits but never tears the
   * database (jobs, rewritten by their workflow; threads, one write per answer).
   */
  durability: 'full' | 'normal';
  /** Creates the schema of version 1, inside the transaction that marks the file as version 1. */
  schema: string;
  /**
   * Indexes added after version 1, as `CREATE INDEX IF NOT EXISTS`: built at open in a file made
   * before them, a no-op after; run while waiting on other processes is still fine (start-up).
   */
  indexes?: string;
}

const open = new Map<string, SqliteDatabase>();

/**
 * One connection per database file and process, in WAL mode: readers never wait for writers and
 * always see the last commit of any process (no cache to invalidate), writers queue on SQLite's
 * own lock, which the kernel releases when a process dies.
 */
export function openDatabase(file: string, options: DatabaseOptions): SqliteDatabase {
  const key = path.resolve(file);
  const existing = open.get(key);
  if (existing?.open) return existing;
  fs.mkdirSync(path.dirname(key), { recursive: true });
  const db = new Database(key);
  // Opening may wait for other processes creating the same file: a blocking wait is fine at start-up.
  db.pragma(`busy_timeout = ${OPEN_TIMEOUT_MS}`);
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.durability === 'full' ? 'FULL' : 'NORMAL'}`);
  // Migrations are trivial while there is one version: create what is missing, then mark the file.
  if (db.pragma('user_version', { simple: true }) === 0) {
    db.transaction(() => {
      if (db.pragma('user_version', { simple: true }) !== 0) return;
      db.exec(options.schema);
      db.pragma('user_version = 1');
    }).immediate();
  }
  if (options.indexes) db.exec(options.indexes);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  fs.chmodSync(key, 0o600);
  open.set(key, db);
  return db;
}

const statements = new WeakMap<SqliteDatabase, Map<string, Database.Statement>>();

/** A prepared statement, compiled once per connection: preparing costs more than running a lookup. */
export function statement(db: SqliteDatabase, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

/** The `body` column of a row a query returned (records are kept as JSON text), or undefined. */
export function bodyOf(row: unknown): string | undefined {
  return typeof row === 'object' && row !== null && 'body' in row && typeof row.body === 'string' ? row.body : undefined;
}

/**
 * Runs `fn` as one write transaction (taking the write lock at its start, so it never fails halfway
 * on a lock). While another process holds the lock it retries with growing pauses, so the event loop
 * keeps serving reads.
 */
export async function writeTransaction<T>(db: SqliteDatabase, fn: () => T): Promise<T> {
  const transaction = db.transaction(fn);
  let waited = 0;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    try {
      return transaction.immediate();
    } catch (err) {
      if (!isBusy(err)) throw err;
      if (waited >= WRITE_WAIT_MS) throw new StoreBusyError({ cause: new Error(`${db.name} stayed locked by another process for ${WRITE_WAIT_MS / 1000}s`, { cause: err }) });
      await sleep(pause);
      waited += pause + BUSY_TIMEOUT_MS;
    }
  }
}
