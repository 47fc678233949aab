import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { createThreadStore } from '../../../core/threads/index.js';
import { assistantWorld, userMessage } from './harness.js';

describe('a follow-up whose thread is not stored yet', function () {
  this.timeout(60_000);

  it('finds the answer stored once its stream has ended: another API replica reading the database at that moment has it', async () => {
    const world = await assistantWorld();
    // The store as another replica reads it: the database alone, with no wait on this process's writer.
    const elsewhere = createThreadStore(world.services.database, { retentionDays: 30 });
    for (let i = 0; i < 5; i++) {
      const res = await world.post('v2', { fp: 'reader', messages: [userMessage(`How do I install the CLI, take ${i}?`)] });
      await res.text();
      const stored = await elsewhere.load(world.org.orgId, res.headers.get('x-thread-id') ?? '');
      assert.deepEqual(stored?.exchanges.map((e) => e.question), [`How do I install the CLI, take ${i}?`]);
    }
    await world.close();
  });

  it('is answered within seconds from the client’s messages while the database cannot commit, not held open; the first exchange is stored once it can', async () => {
    const world = await assistantWorld();
    const target = world.services.config.database;
    assert.equal(target.dialect, 'sqlite');
    // Another connection holds the database's write lock: the completion writer's commits wait, as in an outage.
    const lock = new BetterSqlite3(target.file);
    lock.prepare('BEGIN IMMEDIATE').run();
    let threadId = '';
    try {
      const first = await world.post('v2', { fp: 'reader', messages: [userMessage('How do I install the CLI?')] });
      assert.equal(first.status, 200);
      await first.text();
      threadId = first.headers.get('x-thread-id') ?? '';
      const threadKey = first.headers.get('x-thread-key') ?? '';
      assert.ok(threadId && threadKey);

      let waited: NodeJS.Timeout | undefined;
      const heldOpen = new Promise<never>((_, reject) => {
        waited = setTimeout(() => reject(new Error('the follow-up was held open while the lock stood')), 20_000);
      });
      try {
        const followUp = await Promise.race([world.post('v2', { fp: 'reader', threadId, threadKey, messages: [userMessage('And on Windows?')] }), heldOpen]);
        assert.equal(followUp.status, 200);
        const text = await Promise.race([followUp.text(), heldOpen]);
        assert.match(text, /"type":"text-delta"/);
        assert.ok(text.endsWith('data: [DONE]\n\n'), 'the whole answer streams');
      } finally {
        clearTimeout(waited);
      }
    } finally {
      lock.prepare('ROLLBACK').run();
      lock.close();
    }
    // Once the database commits again the first exchange is stored; the follow-up, answered without its thread, is not added to it.
    await world.services.completions.flush();
    const stored = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(stored.status, 200);
    assert.deepEqual(((await stored.json()) as { exchanges: Array<{ question: string }> }).exchanges.map((e) => e.question), ['How do I install the CLI?']);
    await world.close();
  });
});
