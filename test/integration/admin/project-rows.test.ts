import assert from 'node:assert/strict';
import type { Queries } from '../../../core/db/index.js';
import { deleteProjectRows } from '../../../core/deletion/project-rows.js';
import { createTenantStore } from '../../../core/tenants/index.js';
import { forEachDialect } from '../../support/databases.js';

const TABLES = ['jobs', 'job_messages', 'job_events', 'webhooks', 'webhook_deliveries', 'automations', 'pulls', 'gap_jobs'] as const;

/** One row of the project in every table it owns rows of, under a job named after it. */
async function seedRows(q: Queries, projectId: string): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const jobId = `job_${projectId}`;
  await q.insertInto('jobs').values({ id: jobId, project_id: projectId, status: 'active', created_at: at, updated_at: at, archived_at: null, revision: 1, record_json: '{}' }).execute();
  await q.insertInto('job_messages').values({ project_id: projectId, job_id: jobId, id: 'm1', prompt: 'Say gadget' }).execute();
  await q.insertInto('job_events').values({ job_id: jobId, seq: 1, key: 'k1', project_id: projectId, type: 'turn.started', time: at, data_json: '{}' }).execute();
  await q.insertInto('webhooks').values({ project_id: projectId, id: 'wh', url: 'https://hooks.test', events_json: '[]', secret_kind: 'stored', secret_value: 's', created_at: at }).execute();
  await q.insertInto('webhook_deliveries').values({ delivery_id: `d-${projectId}`, project_id: projectId, webhook_id: 'wh', status: 'delivered', updated_at: at, delivery_json: '{}' }).execute();
  await q.insertInto('automations').values({ project_id: projectId, id: 'auto', created_at: at, record_json: '{}', last_run_json: null }).execute();
  await q
    .insertInto('pulls')
    .values({ project_id: projectId, number: 1, job_id: jobId, branch: `quire/${jobId}`, base: 'main', title: 't', body: 'b', draft: 0, state: 'open', comments_json: '[]', view_token_hash: null, created_at: at, updated_at: at })
    .execute();
  await q.insertInto('gap_jobs').values({ domain_id: 'site', gap_id: 'gap_1', project_id: projectId, job_id: jobId, at: 1 }).execute();
}

async function counts(q: Queries, projectId: string): Promise<number[]> {
  const out: number[] = [];
  for (const table of TABLES) {
    const row = await q.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    out.push(Number(row.n));
  }
  return out;
}

forEachDialect("a project's rows", (database) => {
  it('go with its record in one transaction, counted; another project keeps its own', async () => {
    const store = createTenantStore(database());
    const q = database().queries;
    await store.addOrg('acme');
    for (const id of ['docs', 'other']) await store.putProject({ id, orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    await seedRows(q, 'docs');
    await seedRows(q, 'other');
    let deleted: Awaited<ReturnType<typeof deleteProjectRows>> | undefined;
    assert.equal(
      await store.deleteProject('docs', async (trx) => {
        deleted = await deleteProjectRows(trx, 'docs');
      }),
      true,
    );
    assert.deepEqual(deleted, { jobs: 1, jobMessages: 1, jobEvents: 1, webhooks: 1, webhookDeliveries: 1, automations: 1, pulls: 1, gapJobs: 1 });
    assert.deepEqual(await counts(q, 'docs'), TABLES.map(() => 0));
    assert.deepEqual(await counts(q, 'other'), TABLES.map(() => 1));
  });

  it('stay when the transaction fails: the record and its rows go together or not at all', async () => {
    const store = createTenantStore(database());
    const q = database().queries;
    await store.addOrg('acme');
    await store.putProject({ id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    await seedRows(q, 'docs');
    await assert.rejects(
      store.deleteProject('docs', async (trx) => {
        await deleteProjectRows(trx, 'docs');
        throw new Error('the database broke off');
      }),
      /broke off/,
    );
    assert.ok(await store.getProject('docs'));
    assert.deepEqual(await counts(q, 'docs'), TABLES.map(() => 1));
  });
});
