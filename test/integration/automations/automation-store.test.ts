import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAutomationId, RedisAutomationStore, SqliteAutomationStore, type AutomationRecord, type AutomationStore } from '../../../core/automations/index.js';
import { connectRedis } from '../../../core/redis.js';
import { sharedRedis } from '../../support/redis.js';
import { tempDir } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

function record(projectId: string, createdAt: string, patch: Partial<AutomationRecord> = {}): AutomationRecord {
  return { id: newAutomationId(), projectId, cron: '0 9 * * MON', interval: null, timezone: 'UTC', prompt: 'Tidy up', model: null, asDraft: false, createdAt, ...patch };
}

const stores: Array<[string, () => Promise<AutomationStore>]> = [
  ['SQLite store', async () => SqliteAutomationStore.inDataDir(await tempDir())],
  [
    'Redis store',
    async () => {
      const redis = await connectRedis((await sharedRedis()).url);
      onSuiteEnd(async () => redis.disconnect());
      return new RedisAutomationStore(redis);
    },
  ],
];

for (const [name, open] of stores) {
  describe(`automation store: ${name}`, () => {
    it('keeps records per project, oldest first, with the latest run; a create never replaces; a removed one stays removed', async () => {
      const store = await open();
      // Fresh project ids: the Redis server is shared by the suite.
      const project = `p-${randomUUID()}`;
      const later = record(project, '2026-01-02T00:00:00.000Z', { prompt: 'Later' });
      const earlier = record(project, '2026-01-01T00:00:00.000Z', { interval: '15m', cron: null });
      await store.create(later);
      await store.create(earlier);
      await store.create(record(`p-${randomUUID()}`, '2026-01-01T00:00:00.000Z'));
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
      assert.equal(await store.get(`p-${randomUUID()}`, earlier.id), undefined, 'another project does not see it');
    });
  });
}
