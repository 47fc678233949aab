import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type Dialect as KyselyDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { DatabaseUnavailableError } from './errors.js';
import { instrumentedDialect, type QueryObserver } from './instrumented-dialect.js';
import type { Dialect } from './migrations/index.js';
import type { Schema } from './schema.js';
import type { DatabaseTarget } from './target.js';


/** The query builder over Quire's schema, bound to one database or to one open transaction. */
export type Queries = Kysely<Schema>;

export interface Database {
  readonly dialect: Dialect;
  /** Reads and single-statement writes. */
  readonly queries: Queries;
  /**
   * Runs `fn` as one write transaction: everything it writes commits together or not at all.
   * SQLite takes the write lock at the start (BEGIN IMMEDIATE), so a transaction never fails
   * halfway on another process's lock; while one holds it, the wait does not block the event loop.
   */
  transaction<T>(fn: (trx: Queries) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Told every statement's duration (the database metric). */
  observe?: QueryObserver;
  /** PostgreSQL connections per process. */
  poolSize?: number;
}

/**
 * SQLite's own wait for a lock blocks the event loop: long enough for another process's ordinary
 * statement, short enough not to stall every request behind a stuck one.
 */
const SQLITE_BUSY_TIMEOUT_MS = 250;
/** How long a write transaction waits, without blocking, for another process's write lock. */
const WRITE_WAIT_MS = 10_000;

/** Prepared statements kept per SQLite connection: repositories build the same few hundred statements. */
const STATEMENT_CACHE = 512;

/**
 * The connection as Kysely sees it, preparing each distinct SQL text once: Kysely prepares every
 * statement anew, which cost as much CPU as running it on the assistant's path. Kysely runs one
 * statement at a time per SQLite connection, so a cached statement is never in use twice.
 */
function cachingStatements(db: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE) statements.delete(statements.keys().next().value as string);
        statement = db.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

function sqliteDialect(file: string): KyselyDialect {
  return new SqliteDialect({
    database: async () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const db = new BetterSqlite3(file);
      db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      // WAL: readers never wait for writers and see every process's last commit. NORMAL: a power cut
      // may drop the last commits, never tear the file.
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      fs.chmodSync(file, 0o600);
      return cachingStatements(db);
    },
  });
}

function postgresDialect(url: string, poolSize: number): KyselyDialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits a few seconds for a connection, then answers 503 rather than hanging.
    connectionTimeoutMillis: 3000,
    // Epoch milliseconds are BIGINT; they fit a double exactly for the next 285,000 years.
    types: { getTypeParser: (oid: number, format?: string) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format as 'text')) },
  });
  // An idle connection the server dropped (a restart) is replaced on next use, never a crash.
  pool.on('error', () => undefined);
  // A checked-out connection has no listener of the pool's: a server that goes away between two
  // statements of a transaction would crash the process. The statement under way fails (and is
  // classified); the broken connection is discarded on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new PostgresDialect({ pool });
}

/** A SQLite write transaction's three statements, compiled once (a raw builder compiles anew each time). */
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

function isSqliteBusy(err: unknown): boolean {
  return err instanceof DatabaseUnavailableError && err.cause instanceof Error && 'code' in err.cause && /^SQLITE_(BUSY|LOCKED)/.test(String(err.cause.code));
}

/** Opens the database (no statement runs until the first query); `migrate` brings its schema up to date. */
export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  const observe = options.observe ?? (() => undefined);
  const inner = target.dialect === 'sqlite' ? sqliteDialect(target.file) : postgresDialect(target.url, options.poolSize ?? 10);
  const queries = new Kysely<Schema>({ dialect: instrumentedDialect(inner, observe) });

  const sqliteTransaction = async <T>(fn: (trx: Queries) => Promise<T>): Promise<T> => {
    let waited = 0;
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      try {
        return await queries.connection().execute(async (conn) => {
          await conn.executeQuery(BEGIN_IMMEDIATE);
          try {
            const result = await fn(conn);
            await conn.executeQuery(COMMIT);
            return result;
          } catch (err) {
            await conn.executeQuery(ROLLBACK).catch(() => undefined);
            throw err;
          }
        });
      } catch (err) {
        if (!isSqliteBusy(err) || waited >= WRITE_WAIT_MS) throw err;
        await sleep(pause);
        waited += pause + SQLITE_BUSY_TIMEOUT_MS;
      }
    }
  };

  return {
    dialect: target.dialect,
    queries,
    transaction: (fn) => (target.dialect === 'sqlite' ? sqliteTransaction(fn) : queries.transaction().execute(fn)),
    ping: async () => void (await sql`select 1`.execute(queries)),
    close: () => queries.destroy(),
  };
}
