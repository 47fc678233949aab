import assert from 'node:assert/strict';
import type { AnalyticsStore } from '../../../core/analytics/index.js';
import { answer } from '../../unit/analytics/answer-fixture.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 10);

/** What the analytics store must do, on either dialect. */
export function analyticsStoreContract(open: () => Promise<AnalyticsStore>): void {
  let store: AnalyticsStore;
  beforeEach(async () => {
    store = await open();
  });

  it('lists answers newest first within the period, page by page, without repeating or skipping one', async () => {
    // Two answers share a time: the cursor must still separate them.
    const records = [answer('a1', T0), answer('a2', T0 + 1000), answer('a3', T0 + 1000), answer('a4', T0 + 2000), answer('a5', T0 + 5 * DAY)];
    await store.write(records.map((record) => ({ kind: 'answer', record })));
    await store.write([{ kind: 'answer', record: answer('other', T0 + 1500, { domainId: 'elsewhere' }) }]);
    const seen: string[] = [];
    let after;
    for (let i = 0; i < 5; i++) {
      const page = await store.listAnswers('docs', { from: T0, to: T0 + DAY, limit: 2, after });
      seen.push(...page.items.map((r) => r.id));
      after = page.next;
      if (!after) break;
    }
    assert.deepEqual(seen, ['a4', 'a3', 'a2', 'a1']);
    const all = await store.listAnswers('docs', { from: 0, to: T0 + 10 * DAY, limit: 10 });
    assert.deepEqual(all.items.map((r) => r.id), ['a5', 'a4', 'a3', 'a2', 'a1']);
    assert.equal(all.next, undefined);
    assert.deepEqual(all.items[0], records[4]);
  });

  it('stores and counts an answer sent twice once, within a batch and across batches', async () => {
    const twice = answer('dup', T0);
    await store.write([{ kind: 'answer', record: twice }, { kind: 'answer', record: twice }, { kind: 'answer', record: answer('one', T0 + 1) }]);
    await store.write([{ kind: 'answer', record: twice }]);
    assert.deepEqual((await store.listAnswers('docs', { from: 0, to: T0 + 10 * DAY, limit: 10 })).items.map((r) => r.id), ['one', 'dup']);
    // Whole days come from the daily counts written with the answers.
    assert.deepEqual(await store.callerStats('docs', { from: T0 - DAY, to: T0 + 2 * DAY - 1 }), [{ caller: 'server', surface: 'assistant', total: 2, answered: 2, unanswered: 0 }]);
  });

  it('stores a large batch whole, in several statements, and counts a repeat in a later statement of it once', async () => {
    // 300 answers go in statements of 256, 32, 8 and 4 rows; the last record repeats the first.
    const records = Array.from({ length: 300 }, (_, i) => answer(`big${String(i).padStart(3, '0')}`, T0 + i, { caller: i % 3 === 0 ? 'browser' : 'server' }));
    await store.write([...records, records[0]!].map((record) => ({ kind: 'answer', record })));
    const listed = await store.listAnswers('docs', { from: 0, to: T0 + DAY, limit: 500 });
    assert.equal(listed.items.length, 300);
    assert.deepEqual(listed.items.at(-1), records[0]);
    assert.deepEqual(
      (await store.callerStats('docs', { from: T0 - DAY, to: T0 + 2 * DAY - 1 })).map((c) => [c.caller, c.total]),
      [['server', 200], ['browser', 100]],
    );
  });

  it('counts answers per caller and door and per category, answered and unanswered, within the period', async () => {
    await store.write([
      { kind: 'answer', record: answer('b1', T0, { caller: 'browser' }) },
      { kind: 'answer', record: answer('b2', T0 + 1, { caller: 'browser', resolution: 'unanswered', unansweredReason: 'no_passages' }) },
      { kind: 'answer', record: answer('s1', T0 + 2, { caller: 'server', surface: 'mcp' }) },
      { kind: 'answer', record: answer('late', T0 + 3 * DAY, { caller: 'other' }) },
    ]);
    const stats = await store.callerStats('docs', { from: T0, to: T0 + DAY });
    assert.deepEqual(stats, [
      { caller: 'browser', surface: 'assistant', total: 2, answered: 1, unanswered: 1 },
      { caller: 'server', surface: 'mcp', total: 1, answered: 1, unanswered: 0 },
    ]);
    // Periods that cut days (the embedded store counts whole days from its daily table, the rest exactly).
    assert.deepEqual(await store.callerStats('docs', { from: T0 + 2, to: T0 + DAY }), [{ caller: 'server', surface: 'mcp', total: 1, answered: 1, unanswered: 0 }]);
    assert.deepEqual(
      (await store.callerStats('docs', { from: T0 + 1, to: T0 + 3 * DAY + 5 })).map((c) => [c.caller, c.total]),
      [['browser', 1], ['other', 1], ['server', 1]],
    );
    await store.write([{ kind: 'answer', record: answer('c1', T0 + 3, { category: null, resolution: 'unanswered', unansweredReason: 'no_passages' }) }]);
    assert.deepEqual(await store.categoryStats('docs', { from: T0, to: T0 + DAY }), [
      { category: 'guides', total: 3, unanswered: 1 },
      { category: null, total: 1, unanswered: 1 },
    ]);
  });

  it('aggregates searches per query with their click-through rate and top clicked page; a click on an unknown search is ignored', async () => {
    const search = (id: string, query: string, at: number, hits = 3) => ({ kind: 'search' as const, record: { id, domainId: 'docs', at, query, hits, caller: 'browser' as const } });
    await store.write([search('s1', 'install', T0), search('s2', 'install', T0 + 1, 5), search('s3', 'webhooks', T0 + 2, 0)]);
    await store.write([
      { kind: 'click', record: { domainId: 'docs', searchId: 's1', path: '/guides/install', at: T0 + 10 } },
      { kind: 'click', record: { domainId: 'docs', searchId: 's1', path: '/guides/install', at: T0 + 11 } },
      { kind: 'click', record: { domainId: 'docs', searchId: 'nope', path: '/x', at: T0 + 12 } },
    ]);
    const stats = await store.searchStats('docs', { from: T0, to: T0 + DAY });
    assert.deepEqual(stats, [
      { query: 'install', searches: 2, averageHits: 4, clickedSearches: 1, topClickedPage: '/guides/install', lastSearchedAt: T0 + 1 },
      { query: 'webhooks', searches: 1, averageHits: 0, clickedSearches: 0, topClickedPage: null, lastSearchedAt: T0 + 2 },
    ]);
  });

  it('counts a query however it is cased or spaced as one, shown as most readers wrote it', async () => {
    const search = (id: string, query: string, hits: number) => ({ kind: 'search' as const, record: { id, domainId: 'docs', at: T0, query, hits, caller: 'browser' as const } });
    await store.write([search('i1', 'Install', 2), search('i2', 'install', 4), search('i3', ' INSTALL  cli', 0), search('i4', 'install', 6), search('i5', 'install cli', 0)]);
    await store.write([{ kind: 'click', record: { domainId: 'docs', searchId: 'i1', path: '/guides/install', at: T0 + 1 } }]);
    assert.deepEqual(await store.searchStats('docs', { from: T0, to: T0 + DAY }), [
      { query: 'install', searches: 3, averageHits: 4, clickedSearches: 1, topClickedPage: '/guides/install', lastSearchedAt: T0 },
      { query: ' INSTALL  cli', searches: 2, averageHits: 0, clickedSearches: 0, topClickedPage: null, lastSearchedAt: T0 },
    ]);
  });

  it('counts a click written before its search, as when another replica’s batch came first', async () => {
    await store.write([{ kind: 'click', record: { domainId: 'docs', searchId: 'early', path: '/guides/install', at: T0 + 400 } }]);
    await store.write([{ kind: 'search', record: { id: 'early', domainId: 'docs', at: T0, query: 'install', hits: 3, caller: 'browser' } }]);
    assert.deepEqual(await store.searchStats('docs', { from: T0 - DAY, to: T0 + DAY }), [
      { query: 'install', searches: 1, averageHits: 3, clickedSearches: 1, topClickedPage: '/guides/install', lastSearchedAt: T0 },
    ]);
  });

  it('stores a click on the longest search a client may send (2,000 characters of 3-byte text), and reports it', async () => {
    // Text that does not compress (PostgreSQL compresses a long index entry before it measures it).
    const query = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join('');
    await store.write([{ kind: 'search', record: { id: 'long', domainId: 'docs', at: T0, query, hits: 1, caller: 'browser' } }]);
    await store.write([{ kind: 'click', record: { domainId: 'docs', searchId: 'long', path: '/guides/install', at: T0 + 1 } }]);
    const [stat] = await store.searchStats('docs', { from: T0, to: T0 + DAY });
    assert.equal(stat?.query, query);
    assert.equal(stat?.topClickedPage, '/guides/install');
  });

  it('keeps one rating per message (a new one replaces it) and reports them per page and among the gap questions', async () => {
    await store.write([
      { kind: 'answer', record: answer('m1', T0) },
      { kind: 'answer', record: answer('m2', T0 + 1, { currentPath: '/guides/webhooks' }) },
      { kind: 'answer', record: answer('m3', T0 + 2, { resolution: 'unanswered', unansweredReason: 'no_citation' }) },
    ]);
    await store.putFeedback({ domainId: 'docs', messageId: 'm1', threadId: 't1', helpful: true, comment: null, at: T0 + 100 });
    await store.putFeedback({ domainId: 'docs', messageId: 'm1', threadId: 't1', helpful: false, comment: 'wrong flag', at: T0 + 200 });
    await store.putFeedback({ domainId: 'docs', messageId: 'm2', threadId: 't1', helpful: true, comment: null, at: T0 + 150 });
    const page = await store.listFeedback('docs', { from: T0, to: T0 + DAY, limit: 1 });
    assert.equal(page.items.length, 1);
    assert.deepEqual(page.items[0], { domainId: 'docs', messageId: 'm1', threadId: 't1', helpful: false, comment: 'wrong flag', at: T0 + 200, question: 'question m1', currentPath: '/guides/install' });
    const rest = await store.listFeedback('docs', { from: T0, to: T0 + DAY, limit: 5, after: page.next });
    assert.deepEqual(rest.items.map((f) => f.messageId), ['m2']);
    assert.equal(rest.next, undefined);
    assert.deepEqual(await store.feedbackByPage('docs', { from: T0, to: T0 + DAY }), [
      { path: '/guides/install', helpful: 0, notHelpful: 1 },
      { path: '/guides/webhooks', helpful: 1, notHelpful: 0 },
    ]);
    const gaps = await store.gapQuestions('docs', { from: T0, to: T0 + DAY }, 10);
    assert.deepEqual(gaps.map((g) => [g.record.id, g.notHelpful]), [['m3', false], ['m1', true]]);
  });

  it('reports ratings per page when a rated answer holds a lone surrogate or NUL (a reader\'s question, a model\'s answer)', async () => {
    await store.write([{ kind: 'answer', record: answer('odd', T0, { question: 'install \ud800 CLI', answer: 'run\u0000 it [1]' }) }]);
    await store.putFeedback({ domainId: 'docs', messageId: 'odd', threadId: 't1', helpful: true, comment: null, at: T0 + 100 });
    assert.deepEqual(await store.feedbackByPage('docs', { from: T0, to: T0 + DAY }), [{ path: '/guides/install', helpful: 1, notHelpful: 0 }]);
    const [stored] = (await store.listAnswers('docs', { from: T0, to: T0 + DAY, limit: 1 })).items;
    // What cannot be stored as text reads back as U+FFFD, the rest as it was.
    assert.deepEqual([stored?.question, stored?.answer], ['install \ufffd CLI', 'run\ufffd it [1]']);
  });

  it('lists a thread’s answers oldest first and remembers the jobs started for gaps', async () => {
    await store.write([{ kind: 'answer', record: answer('x2', T0 + 5) }, { kind: 'answer', record: answer('x1', T0) }, { kind: 'answer', record: answer('y', T0, { threadId: 't2' }) }]);
    assert.deepEqual((await store.threadAnswers('docs', 't1')).map((r) => r.id), ['x1', 'x2']);
    await store.putGapJob({ domainId: 'docs', gapId: 'gap_1', projectId: 'p', jobId: 'j1', at: T0 });
    assert.deepEqual(await store.gapJobs('docs'), [{ domainId: 'docs', gapId: 'gap_1', projectId: 'p', jobId: 'j1', at: T0 }]);
  });

  it('purges everything older than the cut-off and keeps the rest', async () => {
    await store.write([
      { kind: 'answer', record: answer('old', T0) },
      { kind: 'answer', record: answer('new', T0 + 2 * DAY) },
      { kind: 'search', record: { id: 's-old', domainId: 'docs', at: T0, query: 'q', hits: 1, caller: 'server' } },
    ]);
    await store.putFeedback({ domainId: 'docs', messageId: 'old', threadId: 't1', helpful: false, comment: null, at: T0 + 1 });
    const removed = await store.purge(T0 + DAY);
    assert.equal(removed, 3);
    assert.deepEqual((await store.listAnswers('docs', { from: 0, to: T0 + 9 * DAY, limit: 10 })).items.map((r) => r.id), ['new']);
    assert.deepEqual(await store.searchStats('docs', { from: 0, to: T0 + 9 * DAY }), []);
    assert.deepEqual((await store.listFeedback('docs', { from: 0, to: T0 + 9 * DAY, limit: 10 })).items, []);
    assert.deepEqual(await store.threadAnswers('docs', 't1'), [(await store.listAnswers('docs', { from: 0, to: T0 + 9 * DAY, limit: 1 })).items[0]]);
  });
}
