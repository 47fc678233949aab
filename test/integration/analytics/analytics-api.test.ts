import assert from 'node:assert/strict';
import { analyticsRouter } from '../../../api/analytics/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { searchRouter } from '../../../api/search/index.js';
import { AnalyticsRecorder, createAnalyticsStore } from '../../../core/analytics/index.js';
import { createLogger } from '../../../core/logger.js';
import { assistantWorld, userMessage, userMessageV1, type AssistantWorld } from '../assistant/harness.js';
import { conforms } from '../../support/openapi-conforms.js';
import { testDatabase } from '../../support/databases.js';

const PAGE = 'http://pages.example.test:8080';
const HOUR = 3_600_000;
const UNCITED = 'The documentation does not say.';

interface Conversation {
  id: string;
  timestamp: string;
  query: string;
  response: string;
  responseType: string;
  sources: Array<{ title: string; url: string }>;
  resolutionStatus: string;
  unansweredReason: string | null;
  queryCategory: string | null;
  pageUrl: string | null;
  threadId: string | null;
  surface: string;
  callerKind: string;
  fp: string | null;
}

describe('analytics over HTTP: recording, feedback, clicks and the admin API', () => {
  let world: AssistantWorld;
  let recorder: AnalyticsRecorder;
  let now = Date.UTC(2026, 5, 1, 12);
  const thread: { id: string; key: string; messageId: string } = { id: '', key: '', messageId: '' };

  before(async () => {
    // The recorder's timer is not started: each test flushes with tick(), on a clock it moves itself.
    recorder = new AnalyticsRecorder({
      store: createAnalyticsStore(await testDatabase('sqlite')),
      logger: createLogger('silent', 'test'),
      retentionDays: 30,
      now: () => now,
    });
    world = await assistantWorld({
      // The fake stands for the model provider: it cites a passage unless the question asks it not to.
      script: (req) => ({ text: JSON.stringify(req.body.messages.at(-1)?.content ?? '').includes('uncited') ? UNCITED : 'Install it with npm [1].' }),
      patch: () => ({ analytics: recorder }),
      features: [analyticsRouter, searchRouter, openAiCompatRouter],
    });
    await world.services.tenants.putDomain({
      id: 'docs',
      orgId: world.org.orgId,
      source: '.',
      docsPath: '',
      baseUrl: 'https://docs.example.com/',
      includeHidden: false,
      allowedOrigins: [PAGE],
    });
  });
  after(() => world.close());

  const admin = (route: string, key = world.org.adminKey) => fetch(`${world.url}${route}`, { headers: { authorization: `Bearer ${key}` } });
  const json = async <T>(res: Response): Promise<T> => {
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as T;
  };
  const conversations = async (query = '') => json<{ conversations: Conversation[]; nextCursor: string | null; hasMore: boolean }>(await admin(`/v1/analytics/docs/assistant${query}`));
  const feedback = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${world.url}/discovery/v1/assistant/docs/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}`, ...headers },
      body: JSON.stringify(body),
    });

  it('records each answer once, with its thread, caller kind, page, fp, category and whether it answered', async () => {
    const browser = await world.post('v2', { fp: 'fp-browser', currentPath: '/guides/install', messages: [userMessage('How do I install the CLI?')] }, { headers: { origin: PAGE } });
    assert.equal(browser.status, 200);
    const stream = await browser.text();
    thread.id = browser.headers.get('x-thread-id') ?? '';
    thread.key = browser.headers.get('x-thread-key') ?? '';
    thread.messageId = /msg_[0-9a-f-]{36}/.exec(stream)?.[0] ?? '';
    now += HOUR;
    await (await world.post('v1', { fp: 'fp-server', messages: [userMessageV1('uncited: how do I install on Windows?')] })).text();
    now += HOUR;
    await (await world.post('v2', { fp: 'fp-server', messages: [userMessage('zzqv qwxj plmok')] })).text();
    now += HOUR;
    const completion = await fetch(`${world.url}/discovery/v1/openai/docs/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}` },
      body: JSON.stringify({ model: 'quire', messages: [{ role: 'user', content: 'How are webhook requests signed?' }] }),
    });
    assert.equal(completion.status, 200, await completion.clone().text());
    await completion.text();
    await recorder.tick();

    const { conversations: list, hasMore } = await conversations();
    assert.equal(hasMore, false);
    assert.deepEqual(list.map((c) => [c.surface, c.callerKind, c.resolutionStatus, c.unansweredReason]), [
      ['openai', 'server', 'answered', null],
      ['assistant', 'server', 'unanswered', 'no_passages'],
      ['assistant', 'server', 'unanswered', 'no_citation'],
      ['assistant', 'browser', 'answered', null],
    ]);
    const first = list[3]!;
    assert.equal(first.id, thread.messageId);
    assert.equal(first.threadId, thread.id);
    assert.equal(first.query, 'How do I install the CLI?');
    // What the reader got: the marker linked to the page, the suggestions block after it.
    assert.equal(first.response, 'Install it with npm [[1]](https://docs.example.com/guides/install#install-the-cli).\n\n```suggestions\n(Installation)[/guides/install]\n```\n');
    // The thread keeps the same answer, once: both come from one completion record.
    const stored = await json<{ exchanges: Array<{ messageId: string; answer: string }> }>(await admin(`/v1/admin/threads/${thread.id}`));
    assert.deepEqual(stored.exchanges.map((x) => [x.messageId, x.answer]), [[first.id, first.response]]);
    assert.equal(first.responseType, 'model');
    assert.equal(first.queryCategory, 'guides');
    assert.equal(first.pageUrl, 'https://docs.example.com/guides/install');
    assert.equal(first.fp, 'fp-browser');
    assert.equal(first.timestamp, new Date(Date.UTC(2026, 5, 1, 12)).toISOString());
    assert.ok(first.sources.some((s) => s.url === 'https://docs.example.com/guides/install#install-the-cli'), JSON.stringify(first.sources));
    assert.ok(list[2]!.response.startsWith(UNCITED + '\n\n```suggestions\n'), list[2]!.response);
    assert.equal(list[1]!.queryCategory, null);
    assert.deepEqual(list[1]!.sources, []);
  });

  it('pages the conversations with limit and cursor, and filters them by dateFrom and dateTo', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await conversations(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.conversations.length, 1);
      seen.push(page.conversations[0]!.id);
      assert.equal(page.hasMore, page.nextCursor !== null);
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, (await conversations()).conversations.map((c) => c.id));
    const window = await conversations(`?dateFrom=${new Date(Date.UTC(2026, 5, 1, 13)).toISOString()}&dateTo=${new Date(Date.UTC(2026, 5, 1, 14)).toISOString()}`);
    assert.deepEqual(window.conversations.map((c) => c.unansweredReason), ['no_passages', 'no_citation']);
    assert.equal((await conversations('?dateFrom=2026-06-02')).conversations.length, 0);
    assert.equal((await conversations('?dateTo=2026-06-01')).conversations.length, 4, 'a date-only dateTo covers its whole day');
  });

  it('refuses a bad period, limit or cursor with 400, and another organisation’s domain with 404', async () => {
    for (const query of ['?dateFrom=yesterday', '?dateFrom=2026-06-02&dateTo=2026-06-01', '?limit=0', '?limit=1001', '?cursor=not-a-cursor']) {
      const res = await admin(`/v1/analytics/docs/assistant${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(((await res.json()) as { code: string }).code, 'invalid_request');
    }
    await world.services.tenants.addOrg('other');
    const other = await world.services.tenants.createKey('other', 'admin');
    for (const route of ['/v1/analytics/docs/assistant', '/v1/analytics/docs/assistant/caller-stats', '/v1/analytics/docs/searches', '/v1/analytics/docs/feedback', '/v1/analytics/docs/gaps']) {
      assert.equal((await admin(route, other.secret)).status, 404, route);
    }
    assert.equal((await admin('/v1/analytics/docs/assistant', world.org.assistantKey)).status, 403);
  });

  it('counts answers per caller kind, and shows a thread with its recorded answers', async () => {
    const stats = await json<{ total: number; answered: number; unanswered: number; callers: Array<{ callerKind: string; surface: string; total: number }> }>(
      await admin('/v1/analytics/docs/assistant/caller-stats'),
    );
    assert.deepEqual([stats.total, stats.answered, stats.unanswered], [4, 2, 2]);
    assert.deepEqual(stats.callers.map((c) => [c.callerKind, c.surface, c.total]), [['server', 'assistant', 2], ['browser', 'assistant', 1], ['server', 'openai', 1]]);
    const shown = await json<{ threadId: string; exchanges: unknown[]; conversations: Conversation[] }>(await admin(`/v1/analytics/docs/assistant/threads/${thread.id}`));
    assert.equal(shown.threadId, thread.id);
    assert.equal(shown.exchanges.length, 1);
    assert.deepEqual(shown.conversations.map((c) => c.id), [thread.messageId]);
    assert.equal((await admin('/v1/analytics/docs/assistant/threads/no-such-thread')).status, 404);
  });

  it('takes a rating from a page on an allowed origin, only from the thread’s holder, one per message', async () => {
    const preflight = await fetch(`${world.url}/discovery/v1/assistant/docs/feedback`, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), PAGE);
    const rating = { threadId: thread.id, threadKey: thread.key, messageId: thread.messageId };
    const up = await feedback({ ...rating, helpful: true }, { origin: PAGE });
    assert.equal(up.status, 204);
    assert.equal(up.headers.get('access-control-allow-origin'), PAGE);
    assert.ok(up.headers.get('ratelimit-remaining'), 'rated with the assistant’s counters');
    assert.equal((await feedback({ ...rating, helpful: true }, { origin: 'https://evil.example.test' })).status, 403);
    assert.equal((await feedback({ ...rating, threadKey: `${thread.key}x`, helpful: false })).status, 404, 'a wrong thread key');
    assert.equal((await feedback({ ...rating, messageId: 'msg_other', helpful: false })).status, 404, 'a message not in the thread');
    assert.equal((await feedback({ ...rating, helpful: 'yes' })).status, 400);
    now += HOUR;
    assert.equal((await feedback({ ...rating, helpful: false, comment: 'It needs Node 22 now' })).status, 204);

    const list = await json<{ feedback: Array<{ id: string; helpful: boolean; comment: string | null; path: string | null; query: string | null }>; hasMore: boolean }>(
      await admin('/v1/analytics/docs/feedback'),
    );
    assert.deepEqual(list.feedback, [
      { id: thread.messageId, path: '/guides/install', comment: 'It needs Node 22 now', createdAt: new Date(now).toISOString(), helpful: false, threadId: thread.id, messageId: thread.messageId, query: 'How do I install the CLI?' },
    ]);
    const byPage = await json<{ pages: unknown[] }>(await admin('/v1/analytics/docs/feedback/by-page'));
    assert.deepEqual(byPage.pages, [{ path: '/guides/install', helpful: 0, notHelpful: 1, total: 1 }]);
  });

  it('records searches and reported clicks, and reports each query’s click-through rate', async () => {
    const search = async (query: string) => {
      const res = await fetch(`${world.url}/discovery/v1/search/docs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}`, origin: PAGE },
        body: JSON.stringify({ query }),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('access-control-expose-headers') ?? '', /X-Search-Id/);
      await res.json();
      return res.headers.get('x-search-id') ?? '';
    };
    const first = await search('install');
    await search('install');
    await search('signing secret');
    const click = await fetch(`${world.url}/discovery/v1/search/docs/click`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}`, origin: PAGE },
      body: JSON.stringify({ searchId: first, path: '/guides/install' }),
    });
    assert.equal(click.status, 204);
    assert.equal(click.headers.get('access-control-allow-origin'), PAGE);
    await recorder.tick();
    const report = await json<{ searches: Array<{ searchQuery: string; searches: number; ctr: number; topClickedPage: string | null }>; totalSearches: number }>(
      await admin('/v1/analytics/docs/searches'),
    );
    assert.equal(report.totalSearches, 3);
    assert.deepEqual(report.searches.map((s) => [s.searchQuery, s.searches, s.ctr, s.topClickedPage]), [['install', 2, 0.5, '/guides/install'], ['signing secret', 1, 0, null]]);
  });

  it('groups the unanswered and poorly rated questions into gaps', async () => {
    const gaps = await json<{ gaps: Array<{ id: string; count: number; questions: string[]; suggestion: string; jobs: unknown[] }> }>(await admin('/v1/analytics/docs/gaps'));
    assert.deepEqual(gaps.gaps.map((g) => g.questions).flat().sort(), ['How do I install the CLI?', 'uncited: how do I install on Windows?', 'zzqv qwxj plmok'].sort());
    assert.ok(gaps.gaps.every((g) => g.id.startsWith('gap_') && g.suggestion.length > 0 && g.jobs.length === 0));
  });

  it('answers as the OpenAPI document says, on success and on error', async () => {
    const get = (template: string, route: string, key?: string) => admin(route, key).then((res) => conforms(template, 'get', res));
    await get('/v1/analytics/{domain}/assistant', '/v1/analytics/docs/assistant?limit=2');
    await get('/v1/analytics/{domain}/assistant', '/v1/analytics/docs/assistant?cursor=zz');
    await get('/v1/analytics/{domain}/assistant', '/v1/analytics/nope/assistant');
    await get('/v1/analytics/{domain}/assistant', '/v1/analytics/docs/assistant', world.org.assistantKey);
    await get('/v1/analytics/{domain}/assistant/threads/{threadId}', `/v1/analytics/docs/assistant/threads/${thread.id}`);
    await get('/v1/analytics/{domain}/assistant/caller-stats', '/v1/analytics/docs/assistant/caller-stats?dateFrom=2026-06-01');
    await get('/v1/analytics/{domain}/searches', '/v1/analytics/docs/searches?limit=1');
    await get('/v1/analytics/{domain}/feedback', '/v1/analytics/docs/feedback');
    await get('/v1/analytics/{domain}/feedback/by-page', '/v1/analytics/docs/feedback/by-page');
    await get('/v1/analytics/{domain}/gaps', '/v1/analytics/docs/gaps');
    const rating = { threadId: thread.id, threadKey: thread.key, messageId: thread.messageId, helpful: false };
    await conforms('/discovery/v1/assistant/{domain}/feedback', 'post', await feedback(rating, { origin: PAGE }));
    await conforms('/discovery/v1/assistant/{domain}/feedback', 'post', await feedback({ ...rating, threadKey: 'wrong' }, { origin: PAGE }));
    const job = await fetch(`${world.url}/v1/analytics/docs/gaps/gap_none/job`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.adminKey}` },
      body: JSON.stringify({ projectId: 'no-such-project' }),
    });
    assert.equal(job.status, 404);
    await conforms('/v1/analytics/{domain}/gaps/{gapId}/job', 'post', job);
  });

  it('deletes what is past the retention on the next purge', async () => {
    now += 31 * 24 * HOUR;
    await recorder.tick();
    assert.deepEqual((await conversations(`?dateFrom=2026-01-01`)).conversations, []);
  });
});

describe('analytics with a full queue', () => {
  it('still answers, and /readyz counts what was dropped', async () => {
    // Capacity 0: the queue is always full, as behind a store that stopped keeping up.
    const recorder = new AnalyticsRecorder({
      store: createAnalyticsStore(await testDatabase('sqlite')),
      logger: createLogger('silent', 'test'),
      retentionDays: 30,
      capacity: 0,
    });
    const world = await assistantWorld({ patch: () => ({ analytics: recorder }) });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await world.post('v2', { fp: 'fp', messages: [userMessage('How do I install the CLI?')] });
        assert.equal(res.status, 200);
        assert.match(await res.text(), /npm install -g quire-cli/);
      }
      const ready = await fetch(`${world.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(((await ready.json()) as { analytics: unknown }).analytics, { queued: 0, dropped: 2, written: 0 });
    } finally {
      await world.close();
    }
  });
});
