import assert from 'node:assert/strict';
import { PURGE_SLICE } from '../../../core/jobs/index.js';
import { createWebhookStore, webhookId, type Webhook, type WebhookDelivery } from '../../../core/webhooks/index.js';
import { sql } from 'kysely';
import { forEachDialect } from '../../support/databases.js';

function hook(projectId: string, url: string, createdAt: string, patch: Partial<Webhook> = {}): Webhook {
  return { id: webhookId(projectId, url), projectId, url, events: [], secret: { kind: 'stored', value: 'whsec_one' }, createdAt, ...patch };
}

function delivery(deliveryId: string, updatedAt: string, patch: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    deliveryId,
    projectId: 'docs',
    webhookId: webhookId('docs', 'https://hooks.example.com/a'),
    url: 'https://hooks.example.com/a',
    event: 'job.completed',
    jobId: 'job-1',
    seq: 3,
    status: 'pending',
    statusCode: null,
    attempts: 0,
    lastError: null,
    updatedAt,
    ...patch,
  };
}

forEachDialect('webhook store', (database, dialect) => {
  it('keeps webhooks per project in registration order; re-adding one updates it and keeps its creation time', async () => {
    const store = createWebhookStore(database());
    const a = hook('docs', 'https://hooks.example.com/a', '2026-01-02T00:00:00.000Z');
    const b = hook('docs', 'https://hooks.example.com/b', '2026-01-01T00:00:00.000Z', { events: ['job.failed'], secret: { kind: 'env', name: 'HOOK_SECRET' } });
    const other = hook('blog', 'https://hooks.example.com/a', '2026-01-03T00:00:00.000Z');
    assert.deepEqual(await store.put(a), a);
    await store.put(b);
    await store.put(other);
    assert.deepEqual(await store.list('docs'), [b, a]);
    assert.deepEqual(await store.list(), [b, a, other], 'every project, oldest first');

    const again = await store.put({ ...a, events: ['job.completed'], secret: { kind: 'stored', value: 'whsec_two' }, createdAt: '2026-02-01T00:00:00.000Z' });
    assert.equal(again.createdAt, a.createdAt);
    assert.deepEqual(await store.get('docs', a.id), { ...a, events: ['job.completed'], secret: { kind: 'stored', value: 'whsec_two' } });
    assert.equal((await store.list('docs')).length, 2, 're-adding never duplicates');

    assert.equal(await store.remove('docs', a.id), true);
    assert.equal(await store.remove('docs', a.id), false);
    assert.equal(await store.get('docs', a.id), undefined);
    assert.deepEqual(await store.get('blog', other.id), other, 'the same URL of another project stays');
  });

  it('records each delivery as its latest attempt left it, newest first, per project', async () => {
    const store = createWebhookStore(database());
    await store.put(hook('docs', 'https://hooks.example.com/a', '2026-01-01T00:00:00.000Z'));
    await store.put(hook('blog', 'https://hooks.example.com/a', '2026-01-01T00:00:00.000Z'));
    await store.recordDelivery(delivery('d1', '2026-01-01T00:00:00.000Z'));
    await store.recordDelivery(delivery('d2', '2026-01-01T00:01:00.000Z'));
    await store.recordDelivery(delivery('elsewhere', '2026-01-01T00:02:00.000Z', { projectId: 'blog', webhookId: webhookId('blog', 'https://hooks.example.com/a') }));
    const outcome = delivery('d1', '2026-01-01T00:03:00.000Z', { status: 'failed', statusCode: 502, attempts: 1, lastError: 'HTTP 502' });
    await store.recordDelivery(outcome);
    assert.deepEqual(await store.deliveries('docs', 10), [outcome, delivery('d2', '2026-01-01T00:01:00.000Z')]);
    assert.deepEqual((await store.deliveries('docs', 1)).map((d) => d.deliveryId), ['d1']);
  });

  it('records no attempt of a delivery whose webhook is gone (removed, or deleted with its project), nor of another project\'s webhook id', async () => {
    const store = createWebhookStore(database());
    const a = hook('docs', 'https://hooks.example.com/a', '2026-01-01T00:00:00.000Z');
    await store.put(a);
    const kept = delivery('d1', '2026-01-01T00:00:00.000Z', { status: 'failed', attempts: 1, lastError: 'HTTP 502' });
    await store.recordDelivery(kept);
    await store.recordDelivery(delivery('elsewhere', '2026-01-01T00:01:00.000Z', { projectId: 'blog' }));
    assert.equal(await store.delivery('blog', 'elsewhere'), undefined, 'the id names no webhook of that project');
    assert.equal(await store.remove('docs', a.id), true);
    // An attempt that was under way when its webhook went, ending now: neither a new row nor a changed one.
    await store.recordDelivery(delivery('d1', '2026-01-01T00:02:00.000Z', { status: 'delivered', statusCode: 200, attempts: 2 }));
    await store.recordDelivery(delivery('d2', '2026-01-01T00:03:00.000Z', { status: 'delivered', statusCode: 200, attempts: 1 }));
    assert.deepEqual(await store.deliveries('docs', 10), [kept]);
  });

  // SQLite writes one statement or transaction at a time: only PostgreSQL can run the two at once.
  if (dialect === 'postgres') {
    it('on PostgreSQL, an attempt recorded while its webhook is being deleted waits for the delete, then writes nothing', async () => {
      const store = createWebhookStore(database());
      const a = hook('docs', 'https://hooks.example.com/a', '2026-01-01T00:00:00.000Z');
      await store.put(a);
      let recording: Promise<void> | undefined;
      let settled = false;
      // The delete's transaction (a project's delete, deleteProjectRows): its webhooks, then their log.
      await database().transaction(async (trx) => {
        await trx.deleteFrom('webhooks').where('project_id', '=', 'docs').execute();
        recording = store.recordDelivery(delivery('d1', '2026-01-01T00:01:00.000Z', { status: 'delivered', statusCode: 200, attempts: 1 })).finally(() => (settled = true));
        for (;;) {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(database().queries);
          if (waiting.rows[0]!.n > 0) break;
          assert.equal(settled, false, 'the attempt waits for the delete');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await trx.deleteFrom('webhook_deliveries').where('project_id', '=', 'docs').execute();
      });
      await recording;
      assert.deepEqual(await store.deliveries('docs', 10), []);
    });
  }

  it('purges deliveries last attempted before the cut-off, more than one slice of them, and keeps the rest', async function () {
    this.timeout(60_000);
    const store = createWebhookStore(database());
    await store.put(hook('docs', 'https://hooks.example.com/a', '2026-01-01T00:00:00.000Z'));
    for (let i = 0; i < PURGE_SLICE + 2; i++) await store.recordDelivery(delivery(`old-${i}`, '2026-01-01T00:00:00.000Z'));
    await store.recordDelivery(delivery('new', '2026-03-01T00:00:00.000Z'));
    assert.equal(await store.purgeDeliveries('2026-02-01T00:00:00.000Z'), PURGE_SLICE + 2);
    assert.equal(await store.purgeDeliveries('2026-02-01T00:00:00.000Z'), 0);
    assert.deepEqual((await store.deliveries('docs', 10)).map((d) => d.deliveryId), ['new']);
  });
});
