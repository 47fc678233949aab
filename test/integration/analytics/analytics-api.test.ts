import assert from 'node:assert/strict';
import { analyticsRouter } from '../../../api/analytics/index.js';
import { llmsRouter } from '../../../api/llms/index.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { searchRouter } from '../../../api/search/index.js';
import { AnalyticsRecorder } from '../../../core/analytics/index.js';
import { createLogger } from '../../../core/logger.js';
import { assistantWorld, userMessage, userMessageV1, type AssistantWorld } from '../assistant/harness.js';
import { conforms } from '../../support/openapi-conforms.js';
import { answer } from '../../unit/analytics/answer-fixture.js';

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

  /** Everything recorded so far written: the answers (the completion writer) and the rest (the recorder's queue). */
  const recorded = async () => {
    await world.services.completions.flush();
    await recorder.tick();
  };

  before(async () => {
    world = await assistantWorld({
      // The fake stands for the model provider: it cites a passage unless the question asks it not to.
      script: (req) => ({ text: JSON.stringify(req.body.messages.at(-1)?.content ?? '').includes('uncited') ? UNCITED : 'Install it with npm [1].' }),
      // The recorder's timer is not started: each test flushes it (and the completion writer), on a clock it moves itself.
      // The platform's own recorder stops first: its purge, on the real clock, would delete this test's records.
      patch: (s) => {
        void s.analytics.stop();
        return { analytics: (recorder = new AnalyticsRecorder({ store: s.analyticsStore, logger: createLogger('silent', 'test'), retentionDays: 30, now: () => now })) };
      },
      features: [analyticsRouter, searchRouter, openAiCompatRouter, llmsRouter, mcpRouter],
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
    await recorded();

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
    // As Mintlify's: dateFrom inclusive, dateTo exclusive.
    const window = await conversations(`?dateFrom=${new Date(Date.UTC(2026, 5, 1, 13)).toISOString()}&dateTo=${new Date(Date.UTC(2026, 5, 1, 15)).toISOString()}`);
    assert.deepEqual(window.conversations.map((c) => c.unansweredReason), ['no_passages', 'no_citation']);
    assert.equal((await conversations('?dateFrom=2026-06-02')).conversations.length, 0);
    assert.equal((await conversations('?dateTo=2026-06-02')).conversations.length, 4, 'a date-only dateTo ends at that day’s midnight');
    assert.equal((await conversations('?dateTo=2026-06-01')).conversations.length, 0, 'results are before, not on, dateTo');
  });

  it('refuses a bad period, limit or cursor with 400, and another organisation’s domain with 404', async () => {
    for (const [query, field] of [['?dateFrom=yesterday', 'dateFrom'], ['?dateFrom=2026-06-02&dateTo=2026-06-01', 'dateFrom'],
      // Days and times that do not exist: Date.parse would move them into the next day or month.
      ['?dateFrom=2026-02-30', 'dateFrom'], ['?dateTo=2026-06-31', 'dateTo'], ['?dateFrom=2026-06-01T24:00Z', 'dateFrom'], ['?dateTo=2026-06-01T10:60:00Z', 'dateTo'], ['?dateFrom=2026-06-01T10:00:00%2B24:00', 'dateFrom'], ['?limit=0', 'limit'], ['?limit=1001', 'limit'], ['?cursor=not-a-cursor', 'cursor'], [`?cursor=${Buffer.from(JSON.stringify([1, 'a\u0000'])).toString('base64url')}`, 'cursor']]) {
      const res = await admin(`/v1/analytics/docs/assistant${query}`);
      assert.equal(res.status, 400, query);
      const body = (await res.json()) as { error: string; code: string; details: Array<{ path: string; message: string }> };
      // Mintlify's error shape (`error`, `details[].message`), with Quire's code and the field named.
      assert.equal(body.code, 'invalid_request');
      assert.equal(typeof body.error, 'string');
      assert.deepEqual([...new Set(body.details.map((d) => d.path))], [field], query);
    }
    assert.equal((await admin('/v1/analytics/docs/assistant?dateFrom=2028-02-29&dateTo=2028-03-01T23:59:59.999%2B01:00')).status, 200, 'a leap day and an offset are dates');
    for (const route of ['/v1/analytics/docs/views?limit=251', '/v1/analytics/docs/visitors?offset=-1', '/v1/analytics/docs/searches?limit=101', '/v1/analytics/docs/feedback?source=email', '/v1/analytics/docs/feedback/by-page?status=open']) {
      assert.equal((await admin(route)).status, 400, route);
    }
    await world.services.tenants.addOrg('other');
    const other = await world.services.tenants.createKey('other', 'admin');
    for (const route of ['/v1/analytics/docs/assistant', '/v1/analytics/docs/assistant/caller-stats', '/v1/analytics/docs/searches', '/v1/analytics/docs/feedback', '/v1/analytics/docs/gaps', '/v1/analytics/docs/views', '/v1/analytics/docs/visitors']) {
      assert.equal((await admin(route, other.secret)).status, 404, route);
    }
    assert.equal((await admin('/v1/analytics/docs/assistant', world.org.assistantKey)).status, 403);
  });

  it('counts questions per caller type and per day, and shows a thread as Mintlify’s messages', async () => {
    const stats = await json<{
      web: number;
      api: number;
      other: number;
      total: number;
      answered: number;
      unanswered: number;
      callers: Array<{ callerKind: string; surface: string; total: number }>;
      days: Array<{ date: string; total: number; answered: number; unanswered: number }>;
    }>(await admin('/v1/analytics/docs/assistant/caller-stats'));
    assert.deepEqual([stats.web, stats.api, stats.other, stats.total], [1, 3, 0, 4]);
    assert.deepEqual([stats.answered, stats.unanswered], [2, 2]);
    assert.deepEqual(stats.callers.map((c) => [c.callerKind, c.surface, c.total]), [['server', 'assistant', 2], ['browser', 'assistant', 1], ['server', 'openai', 1]]);
    assert.deepEqual(stats.days, [{ date: '2026-06-01', total: 4, answered: 2, unanswered: 2 }]);

    const shown = (await json<Record<string, unknown>>(await admin(`/v1/analytics/docs/assistant/threads/${thread.id}`))) as {
      threadId: string;
      createdAt: string;
      messages: Array<Record<string, unknown>>;
    };
    // AssistantThreadResponse, field by field: threadId, createdAt, and the messages in order.
    assert.deepEqual(Object.keys(shown).sort(), ['createdAt', 'messages', 'threadId']);
    assert.equal(shown.threadId, thread.id);
    assert.equal(new Date(shown.createdAt).toISOString(), shown.createdAt);
    assert.deepEqual(shown.messages.map((m) => [m.role, typeof m.id, typeof m.content, typeof m.createdAt]), [
      ['user', 'string', 'string', 'string'],
      ['assistant', 'string', 'string', 'string'],
    ]);
    const [asked, answered] = shown.messages as [Record<string, unknown>, Record<string, unknown>];
    assert.equal(asked.content, 'How do I install the CLI?');
    assert.equal(answered.id, thread.messageId);
    assert.notEqual(asked.id, answered.id);
    assert.match(String(answered.content), /^Install it with npm \[\[1\]\]\(https:\/\/docs\.example\.com\/guides\/install#install-the-cli\)/);
    for (const m of shown.messages) assert.ok(!Number.isNaN(Date.parse(String(m.createdAt))), String(m.createdAt));
    assert.ok(Date.parse(String(asked.createdAt)) <= Date.parse(String(answered.createdAt)));
    // Quire's additions on the answer: the pages it cited and the reader's rating (none yet).
    assert.ok((answered.sources as Array<{ url: string }>).some((src) => src.url === 'https://docs.example.com/guides/install#install-the-cli'));
    assert.equal(answered.feedback, null);
    assert.equal(asked.sources, undefined);

    // A conversation row's id finds its thread too, and an answer of a stateless door is a thread of its own.
    assert.equal((await json<{ threadId: string }>(await admin(`/v1/analytics/docs/assistant/threads/${thread.messageId}`))).threadId, thread.id);
    const openai = (await conversations()).conversations.find((c) => c.surface === 'openai')!;
    const single = await json<{ threadId: string; messages: Array<{ role: string; content: string }> }>(await admin(`/v1/analytics/docs/assistant/threads/${openai.id}`));
    assert.equal(single.threadId, openai.id);
    assert.deepEqual(single.messages.map((m) => [m.role, m.content]), [['user', openai.query], ['assistant', openai.response]]);
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

    const list = await json<{ feedback: unknown[]; hasMore: boolean; nextCursor: string | null }>(await admin('/v1/analytics/docs/feedback'));
    assert.deepEqual(list.feedback, [
      {
        id: thread.messageId,
        path: '/guides/install',
        comment: 'It needs Node 22 now',
        createdAt: new Date(now).toISOString(),
        source: 'contextual',
        status: 'pending',
        helpful: false,
        contact: null,
        threadId: thread.id,
        messageId: thread.messageId,
        query: 'How do I install the CLI?',
      },
    ]);
    assert.deepEqual([list.hasMore, list.nextCursor], [false, null]);
    assert.equal((await json<{ feedback: unknown[] }>(await admin('/v1/analytics/docs/feedback?source=code_snippet'))).feedback.length, 0);
    assert.equal((await json<{ feedback: unknown[] }>(await admin('/v1/analytics/docs/feedback?status=resolved,dismissed'))).feedback.length, 0);
    assert.equal((await json<{ feedback: unknown[] }>(await admin('/v1/analytics/docs/feedback?source=contextual&status=pending'))).feedback.length, 1);
    const byPage = await json<{ feedback: unknown[]; hasMore: boolean }>(await admin('/v1/analytics/docs/feedback/by-page'));
    assert.deepEqual(byPage, { feedback: [{ path: '/guides/install', thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 }], hasMore: false });
    // The rating shows on the thread's answer.
    const rated = await json<{ messages: Array<{ id: string; feedback?: unknown }> }>(await admin(`/v1/analytics/docs/assistant/threads/${thread.id}`));
    assert.deepEqual(rated.messages.find((m) => m.id === thread.messageId)?.feedback, { helpful: false, comment: 'It needs Node 22 now', createdAt: new Date(now).toISOString() });
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
    await recorded();
    const report = await json<{ searches: Array<{ searchQuery: string; hits: number; ctr: number; topClickedPage: string | null; lastSearchedAt: string; averageResults: number }>; totalSearches: number }>(
      await admin('/v1/analytics/docs/searches'),
    );
    assert.equal(report.totalSearches, 3);
    // `hits` is how many times the term was searched, as Mintlify's.
    assert.deepEqual(report.searches.map((s) => [s.searchQuery, s.hits, s.ctr, s.topClickedPage]), [['install', 2, 0.5, '/guides/install'], ['signing secret', 1, 0, null]]);
    assert.ok(report.searches.every((s) => s.averageResults >= 0 && !Number.isNaN(Date.parse(s.lastSearchedAt))));
  });

  it('counts the widget’s page-view beacons as human views and what Quire serves to machines as AI views', async () => {
    const beacon = (body: string, headers: Record<string, string> = { origin: PAGE }, type = 'text/plain;charset=UTF-8') =>
      fetch(`${world.url}/discovery/v1/analytics/docs/page-view`, { method: 'POST', headers: { 'content-type': type, 'user-agent': 'Reader/1', ...headers }, body });
    const view = (path: string, key = world.org.assistantKey) => JSON.stringify({ key, path });
    // As navigator.sendBeacon sends it: JSON as text/plain, the key in the body, no cookie.
    const sent = await beacon(view('/guides/install'));
    assert.equal(sent.status, 204, await sent.clone().text());
    assert.equal(sent.headers.get('access-control-allow-origin'), PAGE);
    assert.equal(sent.headers.get('set-cookie'), null);
    assert.equal((await beacon(view('/guides/install'))).status, 204);
    assert.equal((await beacon(view('/quickstart'), { origin: PAGE, 'user-agent': 'Reader/2' }, 'application/json')).status, 204);

    assert.equal((await beacon(view('/quickstart'), { origin: 'https://evil.example.test' })).status, 403, 'an origin the domain does not list');
    assert.equal((await beacon(view('/quickstart'), {})).status, 403, 'no Origin: not a page');
    assert.equal((await beacon(view('/quickstart', world.org.adminKey))).status, 403, 'an admin key');
    assert.equal((await beacon(view('/quickstart', 'quire_dsc_unknown'))).status, 401);
    for (const [body, field] of [
      ['not json', 'body'],
      [JSON.stringify({ key: world.org.assistantKey }), 'path'],
      [JSON.stringify({ path: '/quickstart' }), 'key'],
      [view('quickstart'), 'path'],
      [view('/quickstart?q=secret'), 'path'],
      [view(`/${'x'.repeat(600)}`), 'path'],
    ] as const) {
      const res = await beacon(body);
      assert.equal(res.status, 400, body.slice(0, 60));
      const error = (await res.json()) as { code: string; details: Array<{ path: string }> };
      assert.equal(error.code, 'invalid_request');
      assert.ok(error.details.some((d) => d.path === field), `${field}: ${JSON.stringify(error.details)}`);
    }

    // Machines: llms.txt, an MCP request, and (earlier) the OpenAI-compatible completion.
    const llms = await fetch(`${world.url}/discovery/v1/llms/docs.txt`, { headers: { 'user-agent': 'GPTBot/1.2' } });
    assert.equal(llms.status, 200);
    await llms.text();
    // MCP: the handshake is no view; the tool call is one.
    const mcpPost = (message: unknown) =>
      fetch(`${world.url}/mcp/docs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${world.org.assistantKey}`, 'user-agent': 'Claude-User/1' },
        body: JSON.stringify(message),
      });
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: { query: 'install' } } },
    ]) {
      const mcp = await mcpPost(message);
      assert.equal(mcp.status, 200, await mcp.clone().text());
      await mcp.text();
    }
    await recorded();

    type Traffic = { human: number; ai: number; total: number };
    const views = await json<{ totals: Traffic; views: Array<Traffic & { path: string }>; hasMore: boolean; days: Array<Traffic & { date: string }> }>(await admin('/v1/analytics/docs/views'));
    const at = (path: string) => views.views.find((v) => v.path === path);
    assert.deepEqual(at('/guides/install'), { path: '/guides/install', human: 2, ai: 0, total: 2 });
    assert.deepEqual(at('/quickstart'), { path: '/quickstart', human: 1, ai: 0, total: 1 });
    for (const path of ['/llms.txt', '/mcp', '/openai/chat/completions']) assert.equal(at(path)?.ai, 1, path);
    // The searches of the earlier test came from a page on the site: a reader's, not counted as AI.
    assert.equal(at('/search'), undefined);
    assert.deepEqual(views.totals, { human: 3, ai: 3, total: 6 });
    assert.equal(views.hasMore, false);
    assert.deepEqual(views.days, [{ date: new Date(now).toISOString().slice(0, 10), human: 3, ai: 3, total: 6 }]);
    const paged = await json<{ views: Array<{ path: string }>; hasMore: boolean }>(await admin('/v1/analytics/docs/views?limit=2&offset=1'));
    assert.deepEqual(paged.views.map((v) => v.path), views.views.slice(1, 3).map((v) => v.path));
    assert.equal(paged.hasMore, true);

    const visitors = await json<{ totals: Traffic; visitors: Array<Traffic & { path: string }>; days: unknown[] }>(await admin('/v1/analytics/docs/visitors'));
    // Two readers (two user agents from one address), and the machines: llms.txt, MCP and the completion each their own agent.
    assert.deepEqual(visitors.totals.human, 2);
    assert.deepEqual(visitors.visitors.find((v) => v.path === '/guides/install'), { path: '/guides/install', human: 1, ai: 0, total: 1 });
    assert.ok(visitors.totals.ai >= 2 && visitors.totals.total === visitors.totals.human + visitors.totals.ai, JSON.stringify(visitors.totals));
  });

  it('groups the unanswered and poorly rated questions into gaps', async () => {
    const gaps = await json<{ gaps: Array<{ id: string; count: number; questions: string[]; examples: Array<{ question: string; threadId: string | null }>; suggestion: string; jobs: unknown[] }> }>(
      await admin('/v1/analytics/docs/gaps'),
    );
    assert.deepEqual(gaps.gaps.map((g) => g.questions).flat().sort(), ['How do I install the CLI?', 'uncited: how do I install on Windows?', 'zzqv qwxj plmok'].sort());
    assert.ok(gaps.gaps.every((g) => g.id.startsWith('gap_') && g.suggestion.length > 0 && g.jobs.length === 0));
    // Each example names the thread that asked it, which the thread endpoint opens.
    const examples = gaps.gaps.flatMap((g) => g.examples);
    assert.deepEqual(examples.map((e) => e.question), gaps.gaps.flatMap((g) => g.questions));
    assert.equal(examples.find((e) => e.question === 'How do I install the CLI?')?.threadId, thread.id);
    for (const { question, threadId } of examples) {
      assert.ok(threadId, `${question} has a thread`);
      const opened = await json<{ messages: Array<{ role: string; content: string }> }>(await admin(`/v1/analytics/docs/assistant/threads/${threadId}`));
      assert.ok(opened.messages.some((m) => m.role === 'user' && m.content === question), `${question} is in its thread`);
    }
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
    await get('/v1/analytics/{domain}/views', '/v1/analytics/docs/views');
    await get('/v1/analytics/{domain}/visitors', '/v1/analytics/docs/visitors?limit=1');
    await get('/v1/analytics/{domain}/views', '/v1/analytics/docs/views?offset=x');
    await get('/v1/analytics/{domain}/assistant/threads/{threadId}', `/v1/analytics/docs/assistant/threads/${thread.messageId}`);
    const pageView = (body: unknown, origin = PAGE) =>
      fetch(`${world.url}/discovery/v1/analytics/docs/page-view`, { method: 'POST', headers: { 'content-type': 'text/plain', origin }, body: JSON.stringify(body) });
    await conforms('/discovery/v1/analytics/{domain}/page-view', 'post', await pageView({ key: world.org.assistantKey, path: '/quickstart' }));
    await conforms('/discovery/v1/analytics/{domain}/page-view', 'post', await pageView({ key: world.org.assistantKey }));
    await conforms('/discovery/v1/analytics/{domain}/page-view', 'post', await pageView({ key: world.org.assistantKey, path: '/x' }, 'https://evil.example.test'));
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

  it('counts a search term however it is cased or spaced, and pages searches and gaps over the first page’s period', async () => {
    const search = async (query: string) =>
      (
        await fetch(`${world.url}/discovery/v1/search/docs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}`, origin: PAGE },
          body: JSON.stringify({ query }),
        })
      ).json();
    for (const query of ['Webhook retries', 'webhook retries', 'WEBHOOK  retries', 'webhook retries']) await search(query);
    await recorded();
    type Searches = { searches: Array<{ searchQuery: string; hits: number }>; nextCursor: string | null };
    const all = await json<Searches>(await admin('/v1/analytics/docs/searches'));
    assert.deepEqual(all.searches.filter((s) => /webhook/i.test(s.searchQuery)).map((s) => [s.searchQuery, s.hits]), [['webhook retries', 4]], 'one row, as most wrote it');
    type Gaps = { gaps: Array<{ id: string; count: number }>; nextCursor: string | null };
    const allGaps = await json<Gaps>(await admin('/v1/analytics/docs/gaps'));
    assert.ok(allGaps.gaps.length >= 2);

    // The first pages; then readers search and ask more, each enough to head its listing.
    const firstSearches = await json<Searches>(await admin('/v1/analytics/docs/searches?limit=1'));
    const firstGaps = await json<Gaps>(await admin('/v1/analytics/docs/gaps?limit=1'));
    now += 1000;
    for (let i = 0; i < 6; i++) await search('billing export');
    const unanswered = { resolution: 'unanswered' as const, unansweredReason: 'no_passages' as const, sources: [] };
    for (const id of ['late1', 'late2', 'late3']) recorder.record({ kind: 'answer', record: answer(id, now, { question: 'How do I export invoices to CSV?', ...unanswered }) });
    await recorded();

    const rest = async <T extends { nextCursor: string | null }>(route: string, page: T, rows: (p: T) => unknown[]) => {
      const seen = [...rows(page)];
      for (let cursor = page.nextCursor; cursor; ) {
        const next = await json<T>(await admin(`${route}?limit=1&cursor=${cursor}`));
        seen.push(...rows(next));
        cursor = next.nextCursor;
      }
      return seen;
    };
    const searches = (p: Searches) => p.searches.map((s) => [s.searchQuery, s.hits]);
    assert.deepEqual(await rest('/v1/analytics/docs/searches', firstSearches, searches), searches(all), 'no row repeated, skipped or added');
    const gaps = (p: Gaps) => p.gaps.map((g) => [g.id, g.count]);
    assert.deepEqual(await rest('/v1/analytics/docs/gaps', firstGaps, gaps), gaps(allGaps));
  });

  it('deletes what is past the retention on the next purge', async () => {
    now += 31 * 24 * HOUR;
    await recorded();
    assert.deepEqual((await conversations(`?dateFrom=2026-01-01`)).conversations, []);
  });
});

describe('analytics with a full queue', () => {
  it('still answers and searches, stores the answers (not queued there), and /readyz counts the searches dropped', async () => {
    // Capacity 0: the queue is always full, as behind a store that stopped keeping up.
    const world = await assistantWorld({
      patch: (s) => ({ analytics: new AnalyticsRecorder({ store: s.analyticsStore, logger: createLogger('silent', 'test'), retentionDays: 30, capacity: 0 }) }),
      features: [searchRouter],
    });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await world.post('v2', { fp: 'fp', messages: [userMessage('How do I install the CLI?')] });
        assert.equal(res.status, 200);
        assert.match(await res.text(), /npm install -g quire-cli/);
        const search = await fetch(`${world.url}/discovery/v1/search/docs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}` },
          body: JSON.stringify({ query: 'install' }),
        });
        assert.equal(search.status, 200, await search.clone().text());
        await search.json();
      }
      await world.services.completions.flush();
      const { items } = await world.services.analyticsStore.listAnswers('docs', { from: 0, to: Date.now() + 60_000, limit: 10 });
      assert.equal(items.length, 2, 'the completion writer stores every answer, whatever the recorder\'s queue holds');
      const ready = await fetch(`${world.url}/readyz`);
      assert.equal(ready.status, 200);
      // Each search is two records: the search and the page view of the machine that asked.
      assert.deepEqual(((await ready.json()) as { analytics: unknown }).analytics, { queued: 0, dropped: 4, written: 0 });
    } finally {
      await world.close();
    }
  });
});
