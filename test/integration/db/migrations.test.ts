import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrate, MIGRATIONS, openDatabase, type Database } from '../../../core/db/index.js';
import { DIALECTS, freshTarget } from '../../support/databases.js';
import { onSuiteEnd } from '../../support/teardown.js';

async function tables(database: Database): Promise<string[]> {
  const names = await database.queries.introspection.getTables();
  return names.map((t) => t.name).sort();
}

for (const dialect of DIALECTS) {
  describe(`database migrations (${dialect})`, function () {
    this.timeout(60_000);

    it('creates every table of the schema, and a second run changes nothing', async function () {
      const target = await freshTarget(dialect);
      const database = openDatabase(target);
      onSuiteEnd(() => database.close());
      const options = target.dialect === 'sqlite' ? { sqliteFile: target.file } : {};
      const first = await migrate(database, options);
      assert.deepEqual(first.applied, MIGRATIONS.map((m) => m.name));
      const created = await tables(database);
      for (const table of ['orgs', 'projects', 'domains', 'api_keys', 'jobs', 'job_messages', 'job_events', 'webhooks', 'webhook_deliveries', 'automations', 'threads', 'thread_exchanges', 'answers', 'searches', 'feedback', 'pulls', 'embeddings', 'console_sessions'])
        assert.ok(created.includes(table), `${table} exists`);
      const second = await migrate(database, options);
      assert.deepEqual(second.applied, []);
      assert.deepEqual(await tables(database), created);
    });

    it('upgrades a database made by the previous migration list, keeping its rows', async function () {
      const target = await freshTarget(dialect);
      const options = target.dialect === 'sqlite' ? { sqliteFile: target.file } : {};
      const older = openDatabase(target);
      await migrate(older, { ...options, migrations: MIGRATIONS.slice(0, -1) });
      await older.queries.insertInto('orgs').values({ id: 'acme', created_at: '2026-01-01T00:00:00.000Z', limits_json: null }).execute();
      await older.close();

      const database = openDatabase(target);
      onSuiteEnd(() => database.close());
      const report = await migrate(database, options);
      assert.deepEqual(report.applied, [MIGRATIONS.at(-1)?.name]);
      const orgs = await database.queries.selectFrom('orgs').select('id').execute();
      assert.deepEqual(orgs, [{ id: 'acme' }]);
      const count = await sql<{ n: number }>`select count(*) as n from quire_migration`.execute(database.queries);
      assert.equal(Number(count.rows[0]?.n), MIGRATIONS.length);
    });

    it('refuses a database a newer release migrated, naming the step it does not know, and changes nothing', async function () {
      const target = await freshTarget(dialect);
      const options = target.dialect === 'sqlite' ? { sqliteFile: target.file } : {};
      const database = openDatabase(target);
      onSuiteEnd(() => database.close());
      await migrate(database, { ...options, migrations: MIGRATIONS.slice(0, -1) });
      await sql`insert into quire_migration (name, timestamp) values ('999-from-a-later-release', '2027-01-01T00:00:00.000Z')`.execute(database.queries);
      await assert.rejects(migrate(database, options), /this database was migrated by a newer Quire \(it records 999-from-a-later-release, which this release does not know\): run that release or a later one/);
      const count = await sql<{ n: number }>`select count(*) as n from quire_migration`.execute(database.queries);
      assert.equal(Number(count.rows[0]?.n), MIGRATIONS.length, 'the step this release would have run is not run');
    });

    it('lets several processes migrate at once: each step runs exactly once', async function () {
      const target = await freshTarget(dialect);
      const options = target.dialect === 'sqlite' ? { sqliteFile: target.file } : {};
      const handles = [openDatabase(target), openDatabase(target), openDatabase(target)];
      for (const h of handles) onSuiteEnd(() => h.close());
      const reports = await Promise.all(handles.map((h) => migrate(h, options)));
      assert.deepEqual(reports.flatMap((r) => r.applied).sort(), MIGRATIONS.map((m) => m.name).sort());
    });
  });
}
