import assert from 'node:assert/strict';
import { createAutomationStore, newAutomationId, type AutomationRecord } from '../../../core/automations/index.js';
import { forEachDialect } from '../../support/databases.js';

function record(projectId: string, createdAt: string, patch: Partial<AutomationRecord> = {}): AutomationRecord {
  return { id: newAutomationId(), projectId, cron: '0 9 * * MON', interval: null, timezone: 'UTC', prompt: 'Tidy up', model: null, asDraft: false, createdAt, ...patch };
}

forEachDialect('automation store', (database) => {
  it('keeps records per project, oldest first, with the latest run; a create never replaces; a removed one stays removed', async () => {
    const store = createAutomationStore(database());
    const project = 'docs';
    const later = record(project, '2026-01-02T00:00:00.000Z', { prompt: 'Later' });
    const earlier = record(project, '2026-01-01T00:00:00.000Z', { interval: '15m', cron: null });
    await store.create(later);
    await store.create(earlier);
    await store.create(record('other', '2026-01-01T00:00:00.000Z'));
    await store.create({ ...later, prompt: 'Replaced?' });
    assert.deepEqual((await store.list(project)).map((s) => s.record), [earlier, later]);
    assert.equal((await store.get(project, later.id))?.record.prompt, 'Later');
    assert.equal((await store.get(project, later.id))?.lastRun, null);

    const run = { at: '2026-01-05T09:00:00.000Z', jobId: 'job_aaaaaaaaaaaaaaaaaaaa', skipped: null };
    await store.noteRun(project, later.id, run);
    const skipped = { at: '2026-01-06T09:00:00.000Z', jobId: run.jobId, skipped: { code: 'overlap' as const, reason: 'still running' } };
    await store.noteRun(project, earlier.id, skipped);
    assert.deepEqual((await store.get(project, later.id))?.lastRun, run);
    assert.deepEqual((await store.list(project)).map((s) => s.lastRun), [skipped, run]);

    await store.remove(project, later.id);
    await store.noteRun(project, later.id, run);
    assert.equal(await store.get(project, later.id), undefined, 'a run noted after the delete does not bring it back');
    assert.deepEqual((await store.list(project)).map((s) => s.record.id), [earlier.id]);
    assert.equal(await store.get('elsewhere', earlier.id), undefined, 'another project does not see it');
  });

  it('claims the next run only over the run it read: of two claims from one read, one wins', async () => {
    const store = createAutomationStore(database());
    const automation = record('docs', '2026-01-01T00:00:00.000Z');
    await store.create(automation);
    const read = await store.get('docs', automation.id);
    assert.equal(read?.runVersion, null);
    const run = (jobId: string) => ({ at: '2026-01-05T09:00:00.000Z', jobId, skipped: null });
    const claims = await Promise.all([store.claimRun('docs', automation.id, null, run('job_aaaaaaaaaaaaaaaaaaaa')), store.claimRun('docs', automation.id, null, run('job_bbbbbbbbbbbbbbbbbbbb'))]);
    assert.deepEqual(claims.filter(Boolean).length, 1);
    const after = await store.get('docs', automation.id);
    assert.equal(after?.lastRun?.jobId, claims[0] ? 'job_aaaaaaaaaaaaaaaaaaaa' : 'job_bbbbbbbbbbbbbbbbbbbb');
    // Over the run it read, the next claim wins; over a stale one, it loses.
    assert.equal(await store.claimRun('docs', automation.id, after!.runVersion, run('job_cccccccccccccccccccc')), true);
    assert.equal(await store.claimRun('docs', automation.id, after!.runVersion, run('job_dddddddddddddddddddd')), false);
  });

  it('lists the same order whatever order the rows were written in: ties of time by id', async () => {
    const store = createAutomationStore(database());
    const at = '2026-03-01T00:00:00.000Z';
    const records = [record('docs', at, { id: 'aut_cccccccccccc' }), record('docs', at, { id: 'aut_aaaaaaaaaaaa' }), record('docs', at, { id: 'aut_bbbbbbbbbbbb' })];
    for (const r of records) await store.create(r);
    assert.deepEqual((await store.list('docs')).map((s) => s.record.id), ['aut_aaaaaaaaaaaa', 'aut_bbbbbbbbbbbb', 'aut_cccccccccccc']);
  });
});
