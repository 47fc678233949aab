import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { databaseTarget, type Database, type DatabaseTarget } from '../../core/db/index.js';
import { sharedPostgres } from './postgres.js';
import { testConfig, testPlatform } from './services.js';
import { onSuiteEnd } from './teardown.js';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof DIALECTS)[number];

/** A new, empty database of the dialect: a SQLite file in a temporary folder, or a database on the suite's PostgreSQL. */
export async function freshTarget(dialect: TestDialect): Promise<DatabaseTarget> {
  if (dialect === 'postgres') return databaseTarget(await (await sharedPostgres()).createDatabase(), '');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-db-'));
  onSuiteEnd(() => fs.rm(dir, { recursive: true, force: true }));
  return databaseTarget(undefined, dir);
}

/** The variables that name a database target: PostgreSQL's URL, or the data directory of the SQLite file. */
export function databaseEnv(target: DatabaseTarget): Record<string, string> {
  return target.dialect === 'postgres' ? { QUIRE_DATABASE_URL: target.url } : { QUIRE_DATA_DIR: path.dirname(target.file) };
}

/** A migrated database of the dialect, on a platform of its own (closed at suite end), as a process opens it. */
export async function testDatabase(dialect: TestDialect): Promise<Database> {
  const platform = await testPlatform(await testConfig(databaseEnv(await freshTarget(dialect))));
  return platform.database;
}

/**
 * Declares the same tests once per dialect: every repository test runs on SQLite and on a real
 * PostgreSQL. `body` receives a getter for a fresh migrated database made before each test.
 */
export function forEachDialect(title: string, body: (database: () => Database, dialect: TestDialect) => void): void {
  for (const dialect of DIALECTS) {
    describe(`${title} (${dialect})`, function () {
      let database: Database | undefined;
      beforeEach(async function () {
        this.timeout(30_000);
        database = await testDatabase(dialect);
      });
      body(() => {
        if (!database) throw new Error('the database is made before each test');
        return database;
      }, dialect);
    });
  }
}
