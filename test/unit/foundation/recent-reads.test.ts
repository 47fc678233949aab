import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { RecentReads } from '../../../core/tenants/recent-reads.js';

/** Reads counted per id, answering `found` for the ids it knows. */
function source(found: Record<string, string>) {
  const reads: string[] = [];
  return { reads, load: (id: string) => async () => (reads.push(id), found[id]) };
}

describe('recent tenant reads', () => {
  it('answer a repeated read from memory until the TTL has passed since it was read', async () => {
    let now = 1_000;
    const cache = new RecentReads<string>({ ttlMs: 2_000, maxEntries: 10, now: () => now });
    const db = source({ a: 'A' });
    assert.equal(await cache.read('a', db.load('a')), 'A');
    now += 1_999;
    assert.equal(await cache.read('a', db.load('a')), 'A');
    assert.deepEqual(db.reads, ['a']);
    now += 1;
    await cache.read('a', db.load('a'));
    assert.deepEqual(db.reads, ['a', 'a'], 'read again once the TTL is over');
  });

  it('keep at most maxEntries, dropping the least recently used', async () => {
    const cache = new RecentReads<string>({ ttlMs: 60_000, maxEntries: 3 });
    const db = source({ a: 'A', b: 'B', c: 'C', d: 'D' });
    for (const id of ['a', 'b', 'c']) await cache.read(id, db.load(id));
    await cache.read('a', db.load('a')); // a is now the most recent
    await cache.read('d', db.load('d')); // evicts b
    assert.equal(cache.size, 3);
    db.reads.length = 0;
    for (const id of ['a', 'c', 'd', 'b']) await cache.read(id, db.load(id));
    assert.deepEqual(db.reads, ['b']);
  });

  it('never keep what was not found or failed: a flood of unknown ids reads every time and evicts nothing', async () => {
    const cache = new RecentReads<string>({ ttlMs: 60_000, maxEntries: 2 });
    const db = source({ live: 'L' });
    await cache.read('live', db.load('live'));
    for (let i = 0; i < 50; i++) assert.equal(await cache.read(`guess-${i}`, db.load(`guess-${i}`)), undefined);
    await assert.rejects(cache.read('broken', async () => Promise.reject(new Error('database down'))), /database down/);
    assert.equal(cache.size, 1);
    db.reads.length = 0;
    await cache.read('guess-0', db.load('guess-0'));
    await cache.read('live', db.load('live'));
    assert.deepEqual(db.reads, ['guess-0'], 'the unknown id is read again, the live one still kept');
  });

  it('share one read between concurrent callers', async () => {
    const cache = new RecentReads<string>({ ttlMs: 60_000, maxEntries: 10 });
    const db = source({ a: 'A' });
    assert.deepEqual(await Promise.all([cache.read('a', db.load('a')), cache.read('a', db.load('a'))]), ['A', 'A']);
    assert.deepEqual(db.reads, ['a']);
  });

  it('forget reads in flight: a caller after a change never gets an answer read before it', async () => {
    const cache = new RecentReads<string>({ ttlMs: 60_000, maxEntries: 10 });
    let release: (v: string) => void = () => undefined;
    const before = cache.read('key', () => new Promise<string>((r) => (release = r)));
    cache.forget(); // a change committed while the first read was in flight
    const after = cache.read('key', async () => 'revoked');
    release('live');
    assert.equal(await before, 'live');
    assert.equal(await after, 'revoked');
    assert.equal(await cache.read('key', async () => 'unexpected read'), 'revoked');
  });

  it('keep nothing while suspended, nor with a TTL of 0', async () => {
    const suspended = new RecentReads<string>({ ttlMs: 60_000, maxEntries: 10 });
    suspended.suspend();
    const db = source({ a: 'A' });
    await suspended.read('a', db.load('a'));
    await suspended.read('a', db.load('a'));
    suspended.resume();
    await suspended.read('a', db.load('a'));
    await suspended.read('a', db.load('a'));
    assert.deepEqual(db.reads, ['a', 'a', 'a']);
    const off = new RecentReads<string>({ ttlMs: 0, maxEntries: 10 });
    await off.read('a', db.load('a'));
    await off.read('a', db.load('a'));
    assert.equal(off.size, 0);
    assert.equal(db.reads.length, 5);
  });

  it('keep an answer, not the request that read it or last replaced it', async () => {
    // A promise keeps the async context it was made in: for a request, its log fields and trace,
    // and through them the whole request, its body and its response.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const requests = new AsyncLocalStorage<{ body: Uint8Array }>();
    const cache = new RecentReads<string>({ ttlMs: 60_000, maxEntries: 100 });
    const kept: Array<WeakRef<object>> = [];
    const request = async (work: () => Promise<unknown>) => {
      const started = { body: new Uint8Array(100_000) };
      kept.push(new WeakRef(started));
      await requests.run(started, work);
    };
    for (let i = 0; i < 20; i++) await request(() => cache.read(`key_${i}`, async () => `record ${i}`));
    for (let i = 0; i < 20; i++) await request(async () => cache.replace(`key_${i}`, `record ${i}, used`));
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.equal(cache.size, 20);
    assert.equal(await cache.read('key_3', async () => 'read again'), 'record 3, used');
    assert.equal(kept.filter((ref) => ref.deref() !== undefined).length, 0, 'requests kept by the answers they read');
  });
});
