import assert from 'node:assert/strict';
import { createJobStore, InvalidCursorError, jobBranch, putJobPreamble, readJobPreamble, type JobRecord, type JobStore } from '../../../core/jobs/index.js';
import { newJobRecord } from '../../../api/agent/create-job.js';
import { sql } from 'kysely';
import { ConflictError, NotFoundError } from '../../../core/errors.js';
import { createTenantStore } from '../../../core/tenants/index.js';
import { forEachDialect } from '../../support/databases.js';

/** A new job as the API creates it, with the given id and time. */
function record(id: string, createdAt: string, patch: Partial<JobRecord> = {}): JobRecord {
  const fresh = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'gpt-test' }, new Date(createdAt));
  return { ...fresh, id, branch: jobBranch(id), ...patch };
}

forEachDialect('job store', (database, dialect) => {
  let store: JobStore;
  beforeEach(() => {
    store = createJobStore(database());
  });

  it('keeps the highest revision, whatever order the writes arrive in', async () => {
    await store.put(record('job_a', '2026-01-01T00:00:00.000Z', { revision: 3, status: 'completed', prLink: 'http://pr/1' }));
    const kept = await store.put(record('job_a', '2026-01-01T00:00:00.000Z', { revision: 2, status: 'active' }));
    assert.equal(kept.status, 'completed');
    assert.equal((await store.get('docs', 'job_a'))?.prLink, 'http://pr/1');
    await store.put(record('job_a', '2026-01-01T00:00:00.000Z', { revision: 4, status: 'archived' }));
    assert.equal((await store.get('docs', 'job_a'))?.status, 'archived');
  });

  it('keeps what the job says it did: branch, title, summary, turns, files, stop reason and todos', async () => {
    const said: Partial<JobRecord> = {
      revision: 5,
      status: 'completed',
      title: 'Say gadget',
      summary: 'Page 2 now says gadget.',
      turns: 2,
      filesChanged: ['page-2.mdx', 'guides/new.mdx'],
      stopReason: 'max_steps',
      todos: [
        { id: '1', content: 'Edit page 2', status: 'completed' },
        { id: '2', content: 'Add the guide', status: 'in_progress' },
      ],
    };
    await store.put(record('job_said', '2026-01-01T00:00:00.000Z', said));
    const read = await store.get('docs', 'job_said');
    assert.deepEqual(read, record('job_said', '2026-01-01T00:00:00.000Z', said));
    assert.deepEqual((await store.list('docs', { limit: 5 })).jobs.find((j) => j.id === 'job_said'), read);
  });

  it('reads a job only under its own project', async () => {
    await store.put(record('job_b', '2026-01-01T00:00:00.000Z'));
    assert.equal((await store.get('other', 'job_b')), undefined);
    assert.equal((await store.get('docs', 'job_missing')), undefined);
  });

  it('lists newest first, filters by status and pages with a cursor', async () => {
    for (let i = 0; i < 7; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      await store.put(record(`job_${i}`, at, { status: i % 2 === 0 ? 'completed' : 'failed' }));
    }
    await store.put({ ...record('job_x', '2026-01-01T00:00:00.000Z'), projectId: 'other' });
    const first = await store.list('docs', { limit: 3 });
    assert.deepEqual(first.jobs.map((j) => j.id), ['job_6', 'job_5', 'job_4']);
    assert.ok(first.nextCursor);
    const second = await store.list('docs', { limit: 3, cursor: first.nextCursor });
    assert.deepEqual(second.jobs.map((j) => j.id), ['job_3', 'job_2', 'job_1']);
    const third = await store.list('docs', { limit: 3, cursor: second.nextCursor ?? undefined });
    assert.deepEqual(third.jobs.map((j) => j.id), ['job_0']);
    assert.equal(third.nextCursor, null);
    const failed = await store.list('docs', { limit: 10, status: 'failed' });
    assert.deepEqual(failed.jobs.map((j) => j.id), ['job_5', 'job_3', 'job_1']);
    assert.equal(failed.nextCursor, null);
    await assert.rejects(store.list('docs', { limit: 3, cursor: 'not-a-cursor' }), InvalidCursorError);
    // A cursor made by hand with a NUL is refused alike on both dialects (PostgreSQL would refuse the text itself).
    const withNul = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'job_\u0000'])).toString('base64url');
    await assert.rejects(store.list('docs', { limit: 3, cursor: withNul }), InvalidCursorError);
  });

  it('create never replaces a newer record; remove forgets the job and its listing', async () => {
    await store.create(record('job_c', '2026-01-01T00:00:00.000Z'));
    assert.equal((await store.get('docs', 'job_c'))?.status, 'active');
    await store.put(record('job_c', '2026-01-01T00:00:00.000Z', { revision: 2, status: 'completed' }));
    await store.create(record('job_c', '2026-01-01T00:00:00.000Z'));
    assert.equal((await store.get('docs', 'job_c'))?.status, 'completed');
    await store.remove('docs', 'job_c');
    assert.equal(await store.get('docs', 'job_c'), undefined);
    assert.deepEqual((await store.list('docs', { limit: 10 })).jobs.map((j) => j.id).includes('job_c'), false);
  });

  it('create refuses a project whose delete has begun (409) or finished (404); on PostgreSQL a delete under way makes it wait, then refuse', async () => {
    const tenants = createTenantStore(database());
    await tenants.addOrg('acme');
    const project = (id: string) => ({ id, orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] });
    await tenants.putProject(project('docs'));
    await store.create(record('job_open', '2026-01-01T00:00:00.000Z'));
    assert.equal(await tenants.beginProjectDeletion('docs'), true);
    await assert.rejects(store.create(record('job_marked', '2026-01-01T00:00:00.000Z')), ConflictError);
    assert.equal(await tenants.deleteProject('docs'), true);
    await assert.rejects(store.create(record('job_gone', '2026-01-01T00:00:00.000Z')), NotFoundError);
    assert.deepEqual((await store.list('docs', { limit: 10 })).jobs.map((j) => j.id), ['job_open']);

    // Created again by its organisation: it takes jobs again.
    await tenants.putProject(project('docs'));
    await store.create(record('job_again', '2026-01-01T00:00:00.000Z'));
    if (dialect !== 'postgres') return;
    // A create while the delete's transaction is open (the record deleted, not committed) waits for it, then finds no project.
    let creating: Promise<unknown> | undefined;
    let settled = false;
    await tenants.deleteProject('docs', async () => {
      creating = store.create(record('job_during', '2026-01-01T00:00:00.000Z')).finally(() => (settled = true));
      creating.catch(() => undefined);
      for (;;) {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(database().queries);
        if (waiting.rows[0]!.n > 0) return;
        assert.equal(settled, false, 'the create waits for the delete');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    await assert.rejects(creating!, NotFoundError);
    assert.equal(await store.get('docs', 'job_during'), undefined);
  });

  it('putMessage refuses a project whose delete has begun (409) or finished (404), and keeps nothing of the message', async () => {
    const tenants = createTenantStore(database());
    await tenants.addOrg('acme');
    await tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    await store.create(record('job_f', '2026-01-01T00:00:00.000Z', { status: 'completed' }));
    await store.putMessage('docs', 'job_f', { id: 'm-open', prompt: 'Before the delete' });
    assert.equal(await tenants.beginProjectDeletion('docs'), true);
    await assert.rejects(store.putMessage('docs', 'job_f', { id: 'm-marked', prompt: 'During the delete' }), (err: unknown) => {
      assert.ok(err instanceof ConflictError);
      assert.equal(err.message, "project 'docs' is being deleted: no message can be sent to its jobs");
      return true;
    });
    assert.equal(await tenants.deleteProject('docs'), true);
    await assert.rejects(store.putMessage('docs', 'job_f', { id: 'm-gone', prompt: 'After the delete' }), NotFoundError);
    assert.deepEqual((await store.getMessages('docs', 'job_f', ['m-open', 'm-marked', 'm-gone'])).map((m) => m.id), ['m-open']);
  });

  it('create writes the record and its first messages in one transaction: a message that cannot be kept leaves no job', async () => {
    await store.create(record('job_t', '2026-01-01T00:00:00.000Z'), [{ id: 'first', prompt: 'Fix the typo' }, { id: 'quire:preamble', prompt: '{}' }]);
    assert.deepEqual((await store.getMessages('docs', 'job_t', ['first', 'quire:preamble'])).map((m) => m.prompt), ['Fix the typo', '{}']);
    // A prompt the database refuses (NOT NULL) fails the create as a whole.
    await assert.rejects(store.create(record('job_u', '2026-01-01T00:00:00.000Z'), [{ id: 'first', prompt: null as unknown as string }]));
    assert.equal(await store.get('docs', 'job_u'), undefined);
    assert.deepEqual(await store.getMessages('docs', 'job_u', ['first']), []);
  });

  it('keeps messages outside the record: the first write of an id wins, reads keep the order asked', async () => {
    const id = 'key:client-retry:0001';
    await store.putMessage('docs', 'job_m', { id, prompt: 'first wording' });
    await store.putMessage('docs', 'job_m', { id, prompt: 'retried with other wording' });
    await store.putMessage('docs', 'job_m', { id: 'm-2', prompt: 'x'.repeat(100_000) });
    const read = await store.getMessages('docs', 'job_m', ['m-2', 'unknown', id]);
    assert.deepEqual(read.map((m) => m.id), ['m-2', id]);
    assert.equal(read[0]?.prompt.length, 100_000);
    assert.equal(read[1]?.prompt, 'first wording');
    assert.deepEqual(await store.getMessages('other', 'job_m', [id]), [], 'scoped to the project');
    assert.deepEqual(await store.getMessages('docs', 'job_m', []), []);
    await store.remove('docs', 'job_m');
    assert.deepEqual(await store.getMessages('docs', 'job_m', [id]), []);
  });

  it('lists nothing for a project without jobs', async () => {
    assert.deepEqual(await store.list('empty', { limit: 20 }), { jobs: [], nextCursor: null });
  });

  it('keeps the preamble beside the messages, first write wins', async () => {
    assert.equal(await readJobPreamble(store, 'docs', 'job_p'), undefined);
    await putJobPreamble(store, 'docs', 'job_p', { system: 'Be brief.', earlier: [{ role: 'user', content: 'hi' }] });
    await putJobPreamble(store, 'docs', 'job_p', { system: 'Other.', earlier: [] });
    assert.deepEqual(await readJobPreamble(store, 'docs', 'job_p'), { system: 'Be brief.', earlier: [{ role: 'user', content: 'hi' }] });
  });

  it('names archived jobs by archive time, oldest first, up to the limit', async () => {
    const archived = (id: string, at: string) => record(id, '2026-01-01T00:00:00.000Z', { status: 'archived', archivedAt: at, revision: 1 });
    await store.put(archived('job_late', '2026-03-01T00:00:00.000Z'));
    await store.put(archived('job_early', '2026-02-01T00:00:00.000Z'));
    await store.put(archived('job_mid', '2026-02-15T00:00:00.000Z'));
    await store.put(record('job_open', '2026-01-01T00:00:00.000Z', { status: 'completed' }));
    assert.deepEqual(await store.archivedBefore('2026-02-20T00:00:00.000Z', 10), [
      { projectId: 'docs', jobId: 'job_early' },
      { projectId: 'docs', jobId: 'job_mid' },
    ]);
    assert.deepEqual(await store.archivedBefore('2026-12-31T00:00:00.000Z', 1), [{ projectId: 'docs', jobId: 'job_early' }]);
  });

  it('names idle jobs (completed or failed, unchanged since) least recently changed first, up to the limit', async () => {
    const at = (id: string, status: JobRecord['status'], updatedAt: string) => record(id, '2026-01-01T00:00:00.000Z', { status, updatedAt, revision: 1 });
    await store.put(at('job_done_old', 'completed', '2026-02-01T00:00:00.000Z'));
    await store.put(at('job_failed_older', 'failed', '2026-01-15T00:00:00.000Z'));
    await store.put(at('job_done_recent', 'completed', '2026-03-01T00:00:00.000Z'));
    await store.put(at('job_active_old', 'active', '2026-01-10T00:00:00.000Z'));
    await store.put({ ...at('job_archived_old', 'archived', '2026-01-05T00:00:00.000Z'), archivedAt: '2026-01-05T00:00:00.000Z' });
    const ids = async (limit: number) => (await store.unchangedBefore(['completed', 'failed'], '2026-02-20T00:00:00.000Z', limit)).map((j) => j.id);
    assert.deepEqual(await ids(10), ['job_failed_older', 'job_done_old']);
    assert.deepEqual(await ids(1), ['job_failed_older']);
  });

  it('keeps the highest revision when many writers put one job at once', async () => {
    const writes = Array.from({ length: 30 }, (_, i) => (i * 7) % 30).map((revision) => store.put(record('job_race', '2026-01-01T00:00:00.000Z', { revision })));
    await Promise.all(writes);
    assert.equal((await store.get('docs', 'job_race'))?.revision, 29);
  });
});
