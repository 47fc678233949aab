import assert from 'node:assert/strict';
import { SqliteThreadStore, RedisThreadStore, type ThreadExchange, type ThreadStore } from '../../../core/threads/index.js';
import { connectRedis } from '../../../core/redis.js';
import { sharedRedis } from '../../support/redis.js';
import { tempDir } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const exchange = (question: string, at = new Date()): ThreadExchange => ({
  messageId: `msg_${question.length}`,
  question,
  answer: `about ${question} [1]`,
  sources: [{ url: 'https://docs.example.com/a#b', title: 'A', path: '/a' }],
  fp: 'anonymous',
  mode: 'model',
  outcome: 'complete',
  startedAt: at.toISOString(),
  finishedAt: at.toISOString(),
});

function behavesAsAThreadStore(name: string, open: () => Promise<ThreadStore>) {
  describe(`${name} thread store`, () => {
    let store: ThreadStore;
    before(async () => {
      store = await open();
    });

    it('creates a thread on first append and keeps exchanges in order', async () => {
      const ref = { orgId: 'acme', threadId: `t-${Date.now()}`, domainId: 'docs' };
      assert.equal(await store.load('acme', ref.threadId), undefined);
      await store.append(ref, exchange('first'));
      await store.append(ref, exchange('second'));
      const t = await store.load('acme', ref.threadId);
      assert.equal(t?.domainId, 'docs');
      assert.deepEqual(t?.exchanges.map((x) => x.question), ['first', 'second']);
      assert.equal(t?.exchanges[1]?.sources[0]?.url, 'https://docs.example.com/a#b');
    });

    it('scopes a thread id to its organisation', async () => {
      const id = `same/id:with..odd chars ${Math.random()}`;
      await store.append({ orgId: 'acme', threadId: id, domainId: 'docs' }, exchange('secret plans'));
      assert.equal(await store.load('rival', id), undefined);
      await store.append({ orgId: 'rival', threadId: id, domainId: 'docs' }, exchange('theirs'));
      assert.deepEqual((await store.load('acme', id))?.exchanges.map((x) => x.question), ['secret plans']);
      assert.deepEqual((await store.load('rival', id))?.exchanges.map((x) => x.question), ['theirs']);
    });

    it('appends a batch across threads, in order, each thread created once', async () => {
      const ref = (x: string) => ({ orgId: 'acme', threadId: `batch-${x}-${Math.random()}`, domainId: 'docs' });
      const [a, b] = [ref('a'), ref('b')];
      await store.appendAll([
        { ref: a, exchange: exchange('a1') },
        { ref: b, exchange: exchange('b1') },
        { ref: a, exchange: exchange('a2') },
      ]);
      assert.deepEqual((await store.load('acme', a.threadId))?.exchanges.map((x) => x.question), ['a1', 'a2']);
      assert.deepEqual((await store.load('acme', b.threadId))?.exchanges.map((x) => x.question), ['b1']);
    });

    it('keeps concurrent appends to one thread', async () => {
      const ref = { orgId: 'acme', threadId: `busy-${Math.random()}`, domainId: 'docs' };
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(ref, exchange(`q${i}`))));
      assert.equal((await store.load('acme', ref.threadId))?.exchanges.length, 10);
    });
  });
}

behavesAsAThreadStore('SQLite', async () => new SqliteThreadStore(await tempDir(), 30));
behavesAsAThreadStore('Redis', async () => {
  const server = await sharedRedis();
  const redis = await connectRedis(server.url);
  onSuiteEnd(async () => redis.disconnect());
  return new RedisThreadStore(redis, 30);
});

describe('thread retention', () => {
  it('the SQLite store forgets a thread untouched for the retention period', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = new SqliteThreadStore(await tempDir(), 30, () => now);
    await store.append({ orgId: 'acme', threadId: 'old', domainId: 'docs' }, exchange('q', now));
    now = new Date('2026-01-30T00:00:00Z');
    assert.ok(await store.load('acme', 'old'), 'still within 30 days');
    now = new Date('2026-02-01T00:00:01Z');
    assert.equal(await store.load('acme', 'old'), undefined);
  });

  it('the Redis store sets a TTL of the retention period, renewed on append', async () => {
    const server = await sharedRedis();
    const redis = await connectRedis(server.url);
    onSuiteEnd(async () => redis.disconnect());
    const store = new RedisThreadStore(redis, 7);
    const threadId = `ttl-${Date.now()}`;
    await store.append({ orgId: 'acme', threadId, domainId: 'docs' }, exchange('q'));
    const keys = await redis.keys(`quire:thread:acme:${threadId}:*`);
    assert.equal(keys.length, 2);
    for (const k of keys) {
      const ttl = await redis.ttl(k);
      assert.ok(ttl > 7 * 86_400 - 60 && ttl <= 7 * 86_400, `${k} ttl ${ttl}`);
    }
  });
});

describe('thread sweep', () => {
  it('the SQLite store sweep deletes threads untouched for the retention period, and their exchanges', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = new SqliteThreadStore(await tempDir(), 30, () => now);
    await store.append({ orgId: 'acme', threadId: 'stale', domainId: 'docs' }, exchange('q', now));
    now = new Date('2026-01-20T00:00:00Z');
    await store.append({ orgId: 'acme', threadId: 'fresh', domainId: 'docs' }, exchange('q', now));
    now = new Date('2026-02-01T00:00:01Z');
    assert.equal(await store.sweep(), 1);
    assert.equal(await store.sweep(), 0);
    now = new Date('2026-01-25T00:00:00Z');
    assert.equal(await store.load('acme', 'stale'), undefined, 'gone, even read at a time it would still be kept');
    assert.equal((await store.load('acme', 'fresh'))?.exchanges.length, 1);
  });
});
