import { Migrator, sql, type Migration } from 'kysely';
import { withFileLock } from '../store/file-lock.js';
import { openDatabase, type Database, type DatabaseOptions } from './database.js';
import { DatabaseUnavailableError } from './errors.js';
import type { DatabaseTarget } from './target.js';
import { MIGRATIONS, type QuireMigration } from './migrations/index.js';

export interface MigrationReport {
  /** The steps this call ran, in order; empty when the schema was already current. */
  applied: string[];
}

/**
 * Brings the schema up to date: runs the steps not yet recorded, in order, each in its own
 * transaction. Safe to run from several processes at once (PostgreSQL: Kysely's lock row; SQLite:
 * a file lock beside the database) and to run again (it then changes nothing).
 */
export async function migrate(database: Database, options: { migrations?: readonly QuireMigration[]; sqliteFile?: string } = {}): Promise<MigrationReport> {
  const steps = options.migrations ?? MIGRATIONS;
  const migrator = new Migrator({
    db: database.queries,
    migrationTableName: 'quire_migration',
    migrationLockTableName: 'quire_migration_lock',
    provider: {
      getMigrations: async () =>
        Object.fromEntries(steps.map((step): [string, Migration] => [step.name, { up: (db) => step.up(db, database.dialect) }])),
    },
  });
  const run = async () => {
    const newer = await unknownSteps(database, steps);
    if (newer.length > 0)
      throw new Error(
        `this database was migrated by a newer Quire (it records ${newer.join(', ')}, which this release does not know): run that release or a later one; going back to an earlier release is not supported`,
      );
    const { error, results } = await migrator.migrateToLatest();
    // A database that cannot be reached stays that error, so every process reports it as such.
    if (error instanceof DatabaseUnavailableError) throw error;
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
  };
  return options.sqliteFile ? withFileLock(`${options.sqliteFile}.migrate`, run) : run();
}

/**
 * The steps the database records that `steps` does not name: a later release migrated it. Kysely
 * would refuse them as "corrupted migrations"; the operator should hear which release to run. A
 * database without the table yet (a new one) records none.
 */
async function unknownSteps(database: Database, steps: readonly QuireMigration[]): Promise<string[]> {
  const known = new Set(steps.map((s) => s.name));
  const recorded = await sql<{ name: string }>`select name from quire_migration`.execute(database.queries).then(
    (r) => r.rows.map((row) => row.name),
    async (err: unknown) => {
      if (err instanceof DatabaseUnavailableError) throw err;
      return [];
    },
  );
  return recorded.filter((name) => !known.has(name));
}

/** The configured database, its schema brought up to date: what every process opens at start. */
export async function openMigratedDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<Database> {
  const database = openDatabase(target, options);
  try {
    await migrate(database, target.dialect === 'sqlite' ? { sqliteFile: target.file } : {});
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
  return database;
}
