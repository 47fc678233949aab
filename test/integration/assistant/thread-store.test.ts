import assert from 'node:assert/strict';
import { createThreadStore, type ThreadExchange } from '../../../core/threads/index.js';
import { forEachDialect } from '../../support/databases.js';

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

forEachDialect('thread store', (database) => {
  it('creates a thread on first append, keeps its key and its exchanges in order', async () => {
    const store = createThreadStore(database(), { retentionDays: 30 });
    const ref = { orgId: 'acme', threadId: 't1', domainId: 'docs', keyHash: 'h'.repeat(64) };
    assert.equal(await store.load('acme', ref.threadId), undefined);
    await store.append(ref, exchange('first'));
    // A later append with another key hash does not change the thread's.
    await store.append({ ...ref, keyHash: 'x'.repeat(64) }, exchange('second'));
    const t = await store.load('acme', ref.threadId);
    assert.equal(t?.domainId, 'docs');
    assert.equal(t?.keyHash, ref.keyHash);
    assert.deepEqual(t?.exchanges.map((x) => x.question), ['first', 'second']);
    assert.deepEqual(t?.exchanges[1], exchange('second', new Date(t?.exchanges[1]?.startedAt ?? '')));
  });

  it('a thread without a key reads back without one', async () => {
    const store = createThreadStore(database(), { retentionDays: 30 });
    await store.append({ orgId: 'acme', threadId: 'keyless', domainId: 'docs' }, exchange('q'));
    assert.equal('keyHash' in ((await store.load('acme', 'keyless')) ?? {}), false);
  });

  it('scopes a thread id to its organisation', async () => {
    const store = createThreadStore(database(), { retentionDays: 30 });
    const id = 'same/id:with..odd chars';
    await store.append({ orgId: 'acme', threadId: id, domainId: 'docs' }, exchange('secret plans'));
    assert.equal(await store.load('rival', id), undefined);
    await store.append({ orgId: 'rival', threadId: id, domainId: 'docs' }, exchange('theirs'));
    assert.deepEqual((await store.load('acme', id))?.exchanges.map((x) => x.question), ['secret plans']);
    assert.deepEqual((await store.load('rival', id))?.exchanges.map((x) => x.question), ['theirs']);
  });

  it('keeps every one of concurrent appends to one thread, each at its own position', async () => {
    const store = createThreadStore(database(), { retentionDays: 30 });
    const ref = { orgId: 'acme', threadId: 'busy', domainId: 'docs' };
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(ref, exchange(`q${i}`))));
    const questions = (await store.load('acme', ref.threadId))?.exchanges.map((x) => x.question) ?? [];
    assert.deepEqual([...questions].sort(), Array.from({ length: 10 }, (_, i) => `q${i}`).sort());
  });

  it('appends a batch across threads in order: new and existing threads, several exchanges of one, each org apart', async () => {
    const store = createThreadStore(database(), { retentionDays: 30 });
    const start = Date.now() - 3_600_000;
    const at = (minute: number) => new Date(start + minute * 60_000);
    const existing = { orgId: 'acme', threadId: 'old', domainId: 'docs', keyHash: 'o'.repeat(64) };
    await store.append(existing, exchange('before', at(0)));
    const fresh = { orgId: 'acme', threadId: 'new', domainId: 'docs', keyHash: 'n'.repeat(64) };
    // The same thread id in another organisation is another thread.
    const rival = { orgId: 'rival', threadId: 'old', domainId: 'theirs' };
    await store.appendAll([
      { ref: fresh, exchange: exchange('n1', at(1)) },
      { ref: { orgId: 'acme', threadId: 'old', domainId: 'docs' }, exchange: exchange('o2', at(2)) },
      { ref: rival, exchange: exchange('r1', at(3)) },
      { ref: { ...fresh, keyHash: undefined }, exchange: exchange('n2', at(4)) },
      { ref: { orgId: 'acme', threadId: 'old', domainId: 'docs' }, exchange: exchange('o3', at(5)) },
    ]);
    const old = await store.load('acme', 'old');
    assert.deepEqual(old?.exchanges.map((x) => x.question), ['before', 'o2', 'o3']);
    assert.equal(old?.keyHash, existing.keyHash);
    assert.equal(old?.createdAt, at(0).toISOString());
    assert.equal(old?.updatedAt, at(5).toISOString());
    const created = await store.load('acme', 'new');
    assert.deepEqual(created?.exchanges.map((x) => x.question), ['n1', 'n2']);
    assert.equal(created?.keyHash, fresh.keyHash, 'the first exchange creates the thread with its key');
    assert.equal(created?.createdAt, at(1).toISOString());
    assert.equal(created?.updatedAt, at(4).toISOString());
    const theirs = await store.load('rival', 'old');
    assert.deepEqual(theirs?.exchanges.map((x) => x.question), ['r1']);
    assert.equal(theirs?.domainId, 'theirs');
    const positions = await database().queries.selectFrom('thread_exchanges').select(['org_id', 'thread_id', 'position']).orderBy('org_id').orderBy('thread_id').orderBy('position').execute();
    assert.deepEqual(
      positions.map((p) => `${p.org_id}/${p.thread_id}/${p.position}`),
      ['acme/new/1', 'acme/new/2', 'acme/old/1', 'acme/old/2', 'acme/old/3', 'rival/old/1'],
    );
  });

  it('an append that replaces an exchange (a regenerated answer) drops it and every later one, in this thread only', async () => {
    const store = createThreadStore(database(), { retentionDays: 30 });
    const ref = { orgId: 'acme', threadId: 'regen', domainId: 'docs' };
    const other = { ...ref, threadId: 'untouched' };
    const q = (question: string) => ({ ...exchange(question), messageId: `msg_${question}` });
    await store.appendAll([q('one'), q('two'), q('three')].map((x) => ({ ref, exchange: x })));
    await store.append(other, q('two'));
    await store.appendAll([{ ref, exchange: q('two again'), replacing: 'msg_two' }]);
    assert.deepEqual((await store.load('acme', 'regen'))?.exchanges.map((x) => x.question), ['one', 'two again']);
    // Replacing an exchange that is not there (already replaced) appends only.
    await store.appendAll([{ ref, exchange: q('four'), replacing: 'msg_gone' }]);
    assert.deepEqual((await store.load('acme', 'regen'))?.exchanges.map((x) => x.question), ['one', 'two again', 'four']);
    assert.deepEqual((await store.load('acme', 'untouched'))?.exchanges.map((x) => x.question), ['two']);
  });

  it('forgets a thread untouched for the retention period when it is read', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = createThreadStore(database(), { retentionDays: 30, now: () => now });
    await store.append({ orgId: 'acme', threadId: 'old', domainId: 'docs' }, exchange('q', now));
    now = new Date('2026-01-30T00:00:00Z');
    assert.ok(await store.load('acme', 'old'), 'still within 30 days');
    now = new Date('2026-02-01T00:00:01Z');
    assert.equal(await store.load('acme', 'old'), undefined);
    const left = await database().queries.selectFrom('thread_exchanges').select('position').where('thread_id', '=', 'old').execute();
    assert.deepEqual(left, [], 'its exchanges went with it');
  });

  it('the sweep deletes threads untouched for the retention period and their exchanges, in slices', async function () {
    this.timeout(60_000);
    let now = new Date('2026-01-01T00:00:00Z');
    const store = createThreadStore(database(), { retentionDays: 30, now: () => now });
    // More than one slice of stale threads.
    for (let i = 0; i < 205; i++) await store.append({ orgId: 'acme', threadId: `stale-${i}`, domainId: 'docs' }, exchange('q', now));
    now = new Date('2026-01-20T00:00:00Z');
    await store.append({ orgId: 'acme', threadId: 'fresh', domainId: 'docs' }, exchange('q', now));
    now = new Date('2026-02-01T00:00:01Z');
    assert.equal(await store.sweep(), 205);
    assert.equal(await store.sweep(), 0);
    now = new Date('2026-01-25T00:00:00Z');
    assert.equal(await store.load('acme', 'stale-0'), undefined, 'gone, even read at a time it would still be kept');
    assert.equal((await store.load('acme', 'fresh'))?.exchanges.length, 1);
    const exchanges = await database().queries.selectFrom('thread_exchanges').select('thread_id').execute();
    assert.deepEqual(exchanges.map((e) => e.thread_id), ['fresh']);
  });

  it('erases a thread on request, with what analytics kept of it; daily counts and other threads stay', async () => {
    const db = database();
    const store = createThreadStore(db, { retentionDays: 30 });
    const mine = { orgId: 'acme', threadId: 'mine', domainId: 'docs' };
    await store.append(mine, exchange('my question'));
    await store.append({ ...mine, threadId: 'theirs' }, exchange('their question'));
    const answer = (id: string, threadId: string) => ({ domain_id: 'docs', id, at: Date.now(), thread_id: threadId, caller: 'browser', surface: 'assistant', resolution: 'answered', category: null, answer_json: '{}' });
    await db.queries.insertInto('answers').values([answer('msg_1', 'mine'), answer('msg_2', 'theirs')]).execute();
    await db.queries.insertInto('feedback').values([
      { domain_id: 'docs', message_id: 'msg_1', thread_id: 'mine', at: Date.now(), helpful: 0, comment: 'my words' },
      { domain_id: 'docs', message_id: 'msg_2', thread_id: 'theirs', at: Date.now(), helpful: 1, comment: null },
    ]).execute();
    await db.queries.insertInto('answer_days').values({ domain_id: 'docs', day: 0, caller: 'browser', surface: 'assistant', category: '', resolution: 'answered', n: 2 }).execute();

    assert.equal(await store.erase({ ...mine, domainId: 'elsewhere' }), false, 'another domain names none of it');
    assert.ok(await store.load('acme', 'mine'));
    assert.equal(await store.erase(mine), true);
    assert.equal(await store.load('acme', 'mine'), undefined);
    assert.equal(await store.erase(mine), false, 'erased once');
    const left = async (table: 'thread_exchanges' | 'answers' | 'feedback') => (await db.queries.selectFrom(table).select('thread_id').execute()).map((r) => r.thread_id);
    assert.deepEqual(await left('thread_exchanges'), ['theirs']);
    assert.deepEqual(await left('answers'), ['theirs']);
    assert.deepEqual(await left('feedback'), ['theirs']);
    assert.deepEqual((await db.queries.selectFrom('answer_days').select('n').execute()).map((r) => Number(r.n)), [2], 'a count names no one');
    assert.deepEqual((await store.load('acme', 'theirs'))?.exchanges.map((x) => x.question), ['their question']);
  });
});
