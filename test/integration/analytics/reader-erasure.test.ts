/**
 * Erasing what one reader left on a domain, by the fingerprint (`fp`) their client sent: the store on
 * both dialects, then the admin route over HTTP with the completion writer in between.
 */
import assert from 'node:assert/strict';
import { adminRouter } from '../../../api/admin/index.js';
import { analyticsRouter } from '../../../api/analytics/index.js';
import { createAnalyticsStore, type AnswerRecord } from '../../../core/analytics/index.js';
import type { Database } from '../../../core/db/index.js';
import { createThreadStore, type ThreadExchange } from '../../../core/threads/index.js';
import { conforms } from '../../support/openapi-conforms.js';
import { forEachDialect } from '../../support/databases.js';
import { seedOrg } from '../../support/services.js';
import { assistantWorld, userMessage, type AssistantWorld } from '../assistant/harness.js';

// Now: a thread older than its retention would be swept as it is written.
const AT = Date.now();

const exchange = (messageId: string, fp: string): ThreadExchange => ({
  messageId,
  question: `question ${messageId}`,
  answer: 'Install it with npm [1].',
  sources: [],
  fp,
  mode: 'model',
  outcome: 'complete',
  startedAt: new Date(AT).toISOString(),
  finishedAt: new Date(AT).toISOString(),
});

const answer = (id: string, domainId: string, threadId: string | null, fp: string | null): AnswerRecord => ({
  id, orgId: 'acme', domainId, threadId, at: AT, question: `question ${id}`, answer: 'Install it with npm [1].', sources: [], mode: 'model',
  surface: 'assistant', caller: 'browser', fp, currentPath: null, resolution: 'answered', unansweredReason: null, category: null,
});

/** What is left, per table, of the domain's rows. */
async function left(database: Database, domainId: string) {
  const q = database.queries;
  const threads = await q.selectFrom('threads').select('thread_id').where('domain_id', '=', domainId).orderBy('thread_id').execute();
  const exchanges = await q.selectFrom('thread_exchanges').select(['thread_id', 'position']).where('thread_id', 'in', ['t-a', 't-b', 't-mixed', 't-aged', 'x-a']).orderBy('thread_id').orderBy('position').execute();
  const answers = await q.selectFrom('answers').select('id').where('domain_id', '=', domainId).orderBy('id').execute();
  const feedback = await q.selectFrom('feedback').select('message_id').where('domain_id', '=', domainId).orderBy('message_id').execute();
  return {
    threads: threads.map((r) => r.thread_id),
    exchanges: exchanges.length,
    answers: answers.map((r) => r.id),
    feedback: feedback.map((r) => r.message_id),
  };
}

forEachDialect('erasing a reader by fingerprint', (database) => {
  it("deletes only that fingerprint's threads (with all their exchanges), answers and those threads' ratings, counted; other readers and other domains keep theirs", async () => {
    const threads = createThreadStore(database(), { retentionDays: 30 });
    const analytics = createAnalyticsStore(database());
    const ref = (threadId: string, domainId = 'docs', orgId = 'acme') => ({ orgId, threadId, domainId });
    // Reader a's thread; reader b's; one where b asked then a (a shared device): it goes whole.
    await threads.appendAll([
      { ref: ref('t-a'), exchange: exchange('a1', 'reader-a') },
      { ref: ref('t-a'), exchange: exchange('a2', 'reader-a') },
      { ref: ref('t-b'), exchange: exchange('b1', 'reader-b') },
      { ref: ref('t-mixed'), exchange: exchange('m1', 'reader-b') },
      { ref: ref('t-mixed'), exchange: exchange('m2', 'reader-a') },
      // Reader a on another domain of the organisation, and on another organisation's domain.
      { ref: ref('x-a', 'handbook'), exchange: exchange('x1', 'reader-a') },
      { ref: ref('x-a', 'rival-docs', 'rival'), exchange: exchange('r1', 'reader-a') },
    ]);
    await analytics.write(
      [
        answer('a1', 'docs', 't-a', 'reader-a'), answer('a2', 'docs', 't-a', 'reader-a'), answer('b1', 'docs', 't-b', 'reader-b'),
        answer('m1', 'docs', 't-mixed', 'reader-b'), answer('m2', 'docs', 't-mixed', 'reader-a'),
        // A thread aged out before its analytics (QUIRE_THREAD_RETENTION_DAYS < QUIRE_ANALYTICS_RETENTION_DAYS): its answers and ratings go by the answer's fp.
        answer('g1', 'docs', 't-aged', 'reader-a'),
        // The stateless doors: no thread.
        answer('s-a', 'docs', null, 'reader-a'), answer('s-b', 'docs', null, 'reader-b'), answer('s-none', 'docs', null, null),
        answer('x1', 'handbook', 'x-a', 'reader-a'), answer('r1', 'rival-docs', 'x-a', 'reader-a'),
      ].map((record) => ({ kind: 'answer' as const, record })),
    );
    for (const [domainId, threadId, messageId] of [['docs', 't-a', 'a2'], ['docs', 't-b', 'b1'], ['docs', 't-mixed', 'm1'], ['docs', 't-aged', 'g1'], ['handbook', 'x-a', 'x1']] as const)
      await analytics.putFeedback({ domainId, threadId, messageId, helpful: false, comment: 'my own words', at: AT });

    assert.deepEqual(await threads.eraseReader({ orgId: 'acme', domainId: 'docs', fp: 'reader-a' }), { threads: 2, answers: 6, feedback: 3 });
    assert.deepEqual(await left(database(), 'docs'), { threads: ['t-b'], exchanges: 1 + 1 + 1, answers: ['b1', 's-b', 's-none'], feedback: ['b1'] });
    assert.deepEqual((await threads.load('acme', 't-b'))?.exchanges.map((e) => e.messageId), ['b1']);
    assert.deepEqual((await left(database(), 'handbook')).answers, ['x1'], 'another domain of the organisation keeps its own');
    assert.deepEqual((await left(database(), 'handbook')).feedback, ['x1']);
    assert.ok(await threads.load('acme', 'x-a'));
    assert.ok(await threads.load('rival', 'x-a'), "another organisation's thread of the same id stays");
    assert.deepEqual((await left(database(), 'rival-docs')).answers, ['r1']);

    // Once more: nothing left of it. A fingerprint that never asked anything: nothing.
    assert.deepEqual(await threads.eraseReader({ orgId: 'acme', domainId: 'docs', fp: 'reader-a' }), { threads: 0, answers: 0, feedback: 0 });
    assert.deepEqual(await threads.eraseReader({ orgId: 'acme', domainId: 'docs', fp: "o'brien \"%_\\" }), { threads: 0, answers: 0, feedback: 0 });
    assert.deepEqual((await left(database(), 'docs')).answers, ['b1', 's-b', 's-none']);
  });
});

describe('POST /v2/admin/domains/{domainId}/reader-erasure', () => {
  let world: AssistantWorld;
  before(async () => {
    world = await assistantWorld({ script: () => ({ text: 'Install it with npm [1].' }), features: [analyticsRouter, adminRouter] });
  });
  after(() => world.close());

  const erase = (domainId: string, body: unknown, key = world.org.adminKey) =>
    fetch(`${world.url}/v2/admin/domains/${domainId}/reader-erasure`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const conversations = async () =>
    ((await (await fetch(`${world.url}/v1/analytics/docs/assistant`, { headers: { authorization: `Bearer ${world.org.adminKey}` } })).json()) as { conversations: Array<{ fp: string | null }> }).conversations;

  /** One answer in a new thread; the answer record may still be held by the completion writer when this returns. */
  async function ask(fp: string): Promise<string> {
    const res = await world.post('v2', { fp, messages: [userMessage('How do I install the CLI?')] });
    assert.equal(res.status, 200);
    await res.text();
    return res.headers.get('x-thread-id') ?? '';
  }

  it("erases the reader's threads and answers, even those the completion writer still holds; others stay", async () => {
    const mine = [await ask('fp-leaving'), await ask('fp-leaving')];
    const theirs = await ask('fp-staying');
    // No flush here: the route writes what the writer holds before it looks.
    const res = await erase('docs', { fp: 'fp-leaving' });
    assert.equal(res.status, 200);
    await conforms('/v2/admin/domains/{domainId}/reader-erasure', 'post', res.clone());
    assert.deepEqual(await res.json(), { threads: 2, answers: 2, feedback: 0 });
    await world.services.completions.flush();
    for (const id of mine) assert.equal(await world.services.threads.load(world.org.orgId, id), undefined);
    assert.ok(await world.services.threads.load(world.org.orgId, theirs));
    assert.deepEqual((await conversations()).map((c) => c.fp), ['fp-staying']);
  });

  it("is the admin's only: an assistant key is 403; another organisation's domain is 404 as an unknown one; a bad body is 400 naming the field", async () => {
    await ask('fp-kept');
    const assistant = await erase('docs', { fp: 'fp-kept' }, world.org.assistantKey);
    assert.equal(assistant.status, 403);
    const rival = await seedOrg(world.services, 'rival-erasure');
    const elsewhere = await erase('docs', { fp: 'fp-kept' }, rival.adminKey);
    const unknown = await erase('no-such', { fp: 'fp-kept' }, rival.adminKey);
    assert.equal(elsewhere.status, 404);
    assert.equal(unknown.status, 404);
    // Word for word the answer for an unknown id, the id aside.
    assert.deepEqual(await elsewhere.json(), JSON.parse((await unknown.text()).replaceAll('no-such', 'docs')));
    for (const body of [{}, { fp: '' }, { fp: 'x'.repeat(257) }, { fp: 7 }, { fp: 'fp-kept', extra: true }]) {
      const bad = await erase('docs', body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(((await bad.json()) as { code: string }).code, 'invalid_request');
    }
    await world.services.completions.flush();
    assert.deepEqual((await conversations()).filter((c) => c.fp === 'fp-kept').length, 1, 'refused, nothing went');
  });
});
