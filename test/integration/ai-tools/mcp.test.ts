import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { searchRouter } from '../../../api/search/index.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { aiToolsWorld, BASE_URL } from './world.js';

type World = Awaited<ReturnType<typeof aiToolsWorld>>;

/** The SDK's own client over real HTTP, recording each response's status and rate-limit headers. */
async function connect(world: World, opts: { key?: string; domain?: string } = {}) {
  const responses: Array<{ method: string; status: number; remaining: string | null }> = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${world.url}/mcp/${opts.domain ?? 'skylark'}`), {
    requestInit: { headers: { authorization: `Bearer ${opts.key ?? world.org.assistantKey}` } },
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      responses.push({ method: init?.method ?? 'GET', status: res.status, remaining: res.headers.get('ratelimit-remaining') });
      return res;
    },
  });
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(transport);
  onSuiteEnd(() => client.close());
  return { client, responses };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string => {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('');
};

/** One JSON-RPC body POSTed as an MCP client would, under `version` (the `MCP-Protocol-Version` header; null: none). */
async function rawMcp(world: World, body: unknown, version: string | null = '2025-06-18') {
  const res = await fetch(`${world.url}/mcp/skylark`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${world.org.assistantKey}`,
      ...(version === null ? {} : { 'mcp-protocol-version': version }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id?: unknown; result?: unknown; error?: { code: number; message: string } } };
}

describe('MCP server per domain (SDK client over HTTP)', () => {
  let world: World;
  before(async () => {
    world = await aiToolsWorld({ features: [mcpRouter, searchRouter], orgLimits: { assistantPerOrgPerHour: 12 } });
  });
  after(() => world.close());

  it('lists search, get_page and ask with JSON schemas and descriptions', async () => {
    const { client } = await connect(world);
    assert.match(client.getInstructions() ?? '', /docs\.skylark\.dev/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['search', 'get_page', 'ask']);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 80, `${tool.name} is described`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.annotations?.readOnlyHint, true);
    }
    assert.deepEqual(tools[0]?.inputSchema.required, ['query']);
    assert.deepEqual(tools[1]?.inputSchema.required, ['path']);
    assert.ok(tools[0]?.outputSchema && tools[2]?.outputSchema);
  });

  it('search returns passages with title, absolute URL and text, and counts against the search limit', async () => {
    const { client, responses } = await connect(world);
    const result = await client.callTool({ name: 'search', arguments: { query: 'verify webhook signatures', pageSize: 3 } });
    assert.equal(result.isError, undefined);
    // The client checked structuredContent against the tool's output schema.
    const { results } = result.structuredContent as { results: Array<{ title: string; url: string; path: string; passage: string }> };
    assert.equal(results.length, 3);
    assert.equal(results[0]?.path, '/guides/webhooks');
    assert.equal(results[0]?.url, `${BASE_URL}/guides/webhooks#verify-signatures`);
    assert.match(results[0]?.title ?? '', /^Webhooks › /);
    assert.match(results[0]?.passage ?? '', /Skylark-Signature/);
    assert.match(textOf(result), /URL: https:\/\/docs\.skylark\.dev\/guides\/webhooks#verify-signatures/);
    const call = responses.at(-1);
    assert.equal(call?.status, 200);
    assert.ok(Number(call?.remaining) >= 0, 'the tool call carries the RateLimit headers');

    const v1 = await client.callTool({ name: 'search', arguments: { query: 'quickstart install', filter: { version: 'v1' } } });
    const v1Results = (v1.structuredContent as { results: Array<{ path: string }> }).results;
    assert.ok(v1Results.some((r) => r.path === '/v1/quickstart'));
  });

  it('get_page returns the page Markdown by path or by URL', async () => {
    const { client } = await connect(world);
    const byPath = textOf(await client.callTool({ name: 'get_page', arguments: { path: '/guides/webhooks' } }));
    assert.match(byPath, /^# Webhooks\n\nURL: https:\/\/docs\.skylark\.dev\/guides\/webhooks\n/);
    assert.match(byPath, /## Verify signatures/);
    const byUrl = textOf(await client.callTool({ name: 'get_page', arguments: { path: `${BASE_URL}/guides/webhooks#verify-signatures` } }));
    assert.equal(byUrl, byPath);
    const restricted = await client.callTool({ name: 'get_page', arguments: { path: '/enterprise/sso' } });
    assert.equal(restricted.isError, true);
    const member = await client.callTool({ name: 'get_page', arguments: { path: '/enterprise/sso', groups: ['enterprise'] } });
    assert.equal(member.isError, undefined);
    // A URL of another site is not read as this site's page of the same path.
    const elsewhere = await client.callTool({ name: 'get_page', arguments: { path: 'https://github.com/skylark/guides/webhooks' } });
    assert.equal(elsewhere.isError, true);
    assert.match(textOf(elsewhere), /^'https:\/\/github\.com\/skylark\/guides\/webhooks' is not a page of https:\/\/docs\.skylark\.dev/);
    assert.equal(textOf(await client.callTool({ name: 'get_page', arguments: { path: 'http://DOCS.skylark.dev/guides/webhooks' } })), byPath);
  });

  it('ask answers from the docs with linked citations (extractive without a model)', async () => {
    const { client } = await connect(world);
    const result = await client.callTool({ name: 'ask', arguments: { question: 'How do I verify webhook signatures?' } });
    assert.equal(result.isError, undefined);
    const answer = result.structuredContent as { answer: string; mode: string; citations: Array<{ index: number; url: string }> };
    assert.equal(answer.mode, 'extractive');
    assert.ok(answer.citations.some((c) => c.url === `${BASE_URL}/guides/webhooks#verify-signatures`));
    assert.ok(answer.answer.includes(`[[1]](${answer.citations[0]?.url})`), 'markers are Markdown links');
    assert.match(textOf(result), /Sources:\n\[1\] \[/);
  });

  it('ask answers through the configured model, counted against the assistant limits', async () => {
    const modelWorld = await aiToolsWorld({
      features: [mcpRouter],
      script: [{ text: 'Check the Skylark-Signature header with your signing secret [1].' }],
      orgLimits: { assistantPerKeyPerMonth: 1 },
    });
    onSuiteEnd(modelWorld.close);
    const { client, responses } = await connect(modelWorld);
    const result = await client.callTool({ name: 'ask', arguments: { question: 'How do I verify webhook signatures?' } });
    const answer = result.structuredContent as { answer: string; mode: string; citations: Array<{ url: string }> };
    assert.equal(answer.mode, 'model');
    assert.equal(answer.answer, `Check the Skylark-Signature header with your signing secret [[1]](${answer.citations[0]?.url}).`);
    const prompt = modelWorld.model?.requests[0]?.body.messages ?? [];
    assert.match(String(prompt[0]?.content), /\[1\] Webhooks \(https:\/\/docs\.skylark\.dev\/guides\/webhooks/);
    assert.equal(prompt.at(-1)?.content, 'How do I verify webhook signatures?');
    assert.equal(responses.at(-1)?.remaining, '0');
    // ask spends the key's monthly assistant limit; search does not.
    const again = await client.callTool({ name: 'ask', arguments: { question: 'And the secret?' } });
    assert.match(textOf(again), /^Rate limit reached \(1 request per month\)/);
    assert.equal((await client.callTool({ name: 'search', arguments: { query: 'signing secret' } })).isError, undefined);
    assert.equal(modelWorld.model?.requests.length, 1);
  });

  it('ask keeps an answer the model cut short, saying so; one cut before any text is a tool error', async () => {
    const cutWorld = await aiToolsWorld({
      features: [mcpRouter],
      script: [{ text: 'Verify the signature with [1] and', finishReason: 'length' }, { text: '', finishReason: 'content_filter' }],
    });
    onSuiteEnd(cutWorld.close);
    const { client } = await connect(cutWorld);
    const cut = await client.callTool({ name: 'ask', arguments: { question: 'How do I verify webhook signatures?' } });
    assert.equal(cut.isError, undefined);
    const answer = cut.structuredContent as { answer: string; cutShort?: string; citations: Array<{ url: string }> };
    assert.equal(answer.answer, `Verify the signature with [[1]](${answer.citations[0]?.url}) and`);
    assert.equal(answer.cutShort, 'length');
    assert.match(textOf(cut), /and\n\n_The answer was cut off: the language model reached its output limit\._\n\nSources:\n\[1\] /);
    const withheld = await client.callTool({ name: 'ask', arguments: { question: 'And the secret?' } });
    assert.equal(withheld.isError, true);
    assert.match(textOf(withheld), /content filter/);
  });

  it('ask stops its model request when the client closes the HTTP request (stateless: the connection is the request)', async () => {
    const words = 'Check the signature header. '.repeat(100);
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    const slowWorld = await aiToolsWorld({
      features: [mcpRouter],
      script: () => {
        arrived();
        return { text: words };
      },
    });
    onSuiteEnd(slowWorld.close);
    const model = slowWorld.model!;
    model.chunkDelayMs = 5;
    const { client } = await connect(slowWorld);
    const call = client.callTool({ name: 'ask', arguments: { question: 'How do I verify webhook signatures?' } }).catch((e: unknown) => e);
    await asked;
    const ended = Promise.race([once(model.events, 'aborted').then(() => 'abandoned'), once(model.events, 'finished').then(() => 'streamed whole')]);
    // The SDK's client aborts its POSTs on close; the server sees the connection close.
    await client.close();
    assert.equal(await ended, 'abandoned');
    assert.ok(model.chunksWritten < words.split(' ').length, `${model.chunksWritten} chunks written`);
    await call;
  });

  it('ask cancelled by a notifications/cancelled in its own batch (protocol 2025-03-26) is answered at once and never asks the model', async () => {
    const cancelWorld = await aiToolsWorld({ features: [mcpRouter], script: [{ text: 'Never asked.' }] });
    onSuiteEnd(cancelWorld.close);
    const ask = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: { question: 'How do I verify webhook signatures?' } } };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'the user stopped' } };
    const { status, body } = await rawMcp(cancelWorld as World, [ask, list, cancel], '2025-03-26');
    assert.equal(status, 200);
    const [cancelled, listed] = body as unknown as Array<{ id: number; result?: unknown; error?: { code: number; message: string } }>;
    assert.deepEqual([cancelled?.id, cancelled?.error?.code], [1, -32800], JSON.stringify(cancelled));
    assert.match(cancelled?.error?.message ?? '', /^Request cancelled: the user stopped$/);
    assert.ok(listed?.result);
    assert.equal(cancelWorld.model?.requests.length, 0);
    // A notification for a request of another POST has nothing here to cancel: it is taken (202), as any notification.
    const elsewhere = await fetch(`${cancelWorld.url}/mcp/skylark`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${cancelWorld.org.assistantKey}` },
      body: JSON.stringify(cancel),
    });
    assert.equal(elsewhere.status, 202);
  });

  it('reports bad arguments, unknown pages and tools as errors the model can read', async () => {
    const { client } = await connect(world);
    const empty = await client.callTool({ name: 'search', arguments: { query: '   ' } });
    assert.equal(empty.isError, true);
    assert.match(textOf(empty), /^Invalid arguments for search: query must match pattern/);
    const big = await client.callTool({ name: 'search', arguments: { query: 'x', pageSize: 500, colour: 'red' } });
    assert.match(textOf(big), /pageSize must be <= 50/);
    assert.match(textOf(big), /must NOT have additional properties/);
    const missing = await client.callTool({ name: 'get_page', arguments: { path: '/no/such/page' } });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /No page at '\/no\/such\/page'/);
    await assert.rejects(client.callTool({ name: 'delete_everything', arguments: {} }), /Unknown tool 'delete_everything'/);
    // The code is the error's code field; the message is the reason alone, which clients show after their own prefix.
    const unknown = await rawMcp(world, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'delete_everything', arguments: {} } });
    assert.equal(unknown.body.error?.code, -32602);
    assert.equal(unknown.body.error?.message, "Unknown tool 'delete_everything'; the tools are search, get_page, ask.");
  });

  it('answers an unknown domain and another organisation\'s domain with the same tool error', async () => {
    const unknown = await connect(world, { domain: 'nope' });
    const theirs = await connect(world, { domain: 'theirs' });
    assert.equal((await theirs.client.listTools()).tools.length, 3);
    const a = await unknown.client.callTool({ name: 'search', arguments: { query: 'webhooks' } });
    const b = await theirs.client.callTool({ name: 'get_page', arguments: { path: '/guides/webhooks' } });
    assert.equal(a.isError, true);
    assert.equal(b.isError, true);
    assert.equal(textOf(a).replace('nope', 'X'), textOf(b).replace('theirs', 'X'));
    assert.match(textOf(a), /No documentation domain 'nope'/);
  });

  it('refuses a missing or wrong key with HTTP 401 before MCP, and an admin key with 403', async () => {
    for (const key of ['quire_dsc_not-a-real-key', '']) {
      const err = await connect(world, { key }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof StreamableHTTPError, String(err));
      assert.equal(err.code, 401);
    }
    const admin = await connect(world, { key: world.org.adminKey }).catch((e: unknown) => e);
    assert.ok(admin instanceof StreamableHTTPError && admin.code === 403);
    const raw = await fetch(`${world.url}/mcp/skylark`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(raw.status, 401);
    assert.equal(raw.headers.get('www-authenticate'), 'Bearer');
  });

  it('answers a body that is not JSON with JSON-RPC\'s parse error, as the transport answers a message it cannot read', async () => {
    const res = await fetch(`${world.url}/mcp/skylark`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${world.org.assistantKey}` },
      body: '{"jsonrpc":',
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    assert.deepEqual([body.jsonrpc, body.error.code, body.id], ['2.0', -32700, null]);
    assert.match(body.error.message, /^Parse error: request body is not valid JSON/);
  });

  it('answers a tools/call whose params are not a call with JSON-RPC\'s invalid params (-32602) and the reason, not an internal error', async () => {
    const call = (params: unknown) => rawMcp(world, { jsonrpc: '2.0', id: 7, method: 'tools/call', params });
    for (const [params, reason] of [
      [{ name: 5 }, /^Invalid params: params\.name must be a string/],
      [undefined, /^Invalid params: params must be an object/],
      [{ name: 'search', arguments: 'webhooks' }, /^Invalid params: params\.arguments must be an object/],
    ] as const) {
      const { status, body } = await call(params);
      assert.equal(status, 200);
      assert.deepEqual([body.id, body.error?.code], [7, -32602], JSON.stringify(body));
      assert.match(body.error?.message ?? '', reason);
    }
    // A well-formed call still reaches the tool.
    const ok = await call({ name: 'search', arguments: { query: 'webhooks' } });
    assert.equal(ok.status, 200);
    assert.ok(ok.body.result, JSON.stringify(ok.body));
  });

  it('answers JSON that is no MCP message (an id that is null, fractional, true or an object; params that are not an object) with -32600, not a parse error', async () => {
    const request = (fields: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'tools/list', ...fields });
    // The error's id is the request's when it can be read, else null, as JSON-RPC says.
    for (const [body, reason, id] of [
      [request({ id: null }), /id must be a string or an integer/, null],
      [request({ id: 1.5 }), /id must be a string or an integer/, null],
      [request({ id: true }), /id must be a string or an integer/, null],
      [request({ id: { n: 1 } }), /id must be a string or an integer/, null],
      [request({ id: 4, params: 5 }), /params must be an object/, 4],
      [{ jsonrpc: '2.0', id: 'p', method: 'ping', params: null }, /params must be an object/, 'p'],
      [request({ id: 2 ** 53 }), /id must be a string or an integer/, null],
      [{ jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: 5 } }, /^Invalid Request: params\._meta: /, 4],
      [[request({ id: 1 }), request({ id: null })], /message 2 of the batch: id must be a string or an integer/, null],
    ] as const) {
      const { status, body: answer } = await rawMcp(world, body, '2025-03-26');
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
      assert.equal(answer.id, id);
      assert.match(answer.error?.message ?? '', reason);
    }
    // Every id MCP allows is answered with itself.
    for (const id of ['abc', '', 0, -5, 1e3]) {
      const { status, body } = await rawMcp(world, request({ id }));
      assert.equal(status, 200);
      assert.equal(body.id, id);
      assert.ok(body.result, JSON.stringify(body));
    }
  });

  it('answers an initialize or tools/list whose params do not fit the method with -32602 and the field, not an internal error', async () => {
    const clientInfo = { name: 't', version: '1' };
    for (const [method, params, reason] of [
      ['initialize', undefined, /^Invalid params: params: /],
      ['initialize', { capabilities: {}, clientInfo }, /^Invalid params: params\.protocolVersion: /],
      ['initialize', { protocolVersion: 20250618, capabilities: {}, clientInfo }, /^Invalid params: params\.protocolVersion: /],
      ['initialize', { protocolVersion: '2025-06-18', capabilities: {} }, /^Invalid params: params\.clientInfo: /],
      ['tools/list', { cursor: 5 }, /^Invalid params: params\.cursor: /],
    ] as const) {
      const { status, body } = await rawMcp(world, { jsonrpc: '2.0', id: 'x', method, params });
      assert.equal(status, 200);
      assert.deepEqual([body.id, body.error?.code], ['x', -32602], JSON.stringify(body));
      assert.match(body.error?.message ?? '', reason);
      assert.doesNotMatch(body.error?.message ?? '', /\n/, 'one line, not the validator\'s dump');
    }
  });

  it('answers each request of a batch (protocol 2025-03-26) as it answers it alone: params that do not fit are -32602 there too', async () => {
    const clientInfo = { name: 't', version: '1' };
    const requests = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: 'webhooks' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call' },
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 5 } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'delete_everything', arguments: {} } },
      { jsonrpc: '2.0', id: 6, method: 'ping', params: { protocolVersion: 20250618, clientInfo } },
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    ];
    const alone = [];
    for (const request of requests) alone.push((await rawMcp(world, request, '2025-03-26')).body);
    const batch = await rawMcp(world, requests, '2025-03-26');
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.body, alone);
    assert.deepEqual(alone.map((a) => a.error?.code), [-32602, -32602, -32602, -32602, -32602, undefined, undefined]);
  });

  it('answers JSON-RPC batches only under protocol 2025-03-26 (or no header), refusing them under every other version, and an empty batch or a value that is not a JSON-RPC message, with -32600', async () => {
    const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
    // 2024-11-05 (and the 2024-10-07 draft) came before batches; 2025-06-18 removed them.
    for (const version of ['2024-10-07', '2024-11-05', '2025-06-18', '2025-11-25']) {
      const { status, body } = await rawMcp(world, [list(1), list(2)], version);
      assert.equal(status, 400, version);
      assert.deepEqual([body.id, body.error?.code], [null, -32600], version);
      assert.equal(body.error?.message, `Invalid Request: MCP ${version} has no JSON-RPC batches (only 2025-03-26 has them); send one message per POST`);
    }
    // Protocol 2025-03-26 had batches, and is what a client without the header speaks: both requests are answered.
    for (const version of ['2025-03-26', null]) {
      const older = await rawMcp(world, [list(1), list(2)], version);
      assert.equal(older.status, 200, String(version));
      assert.deepEqual((older.body as unknown as Array<{ id: number }>).map((r) => r.id), [1, 2]);
    }
    for (const body of [[], { hello: 'world' }, { jsonrpc: '1.0', id: 3, method: 'tools/list' }]) {
      const refused = await rawMcp(world, body, '2025-03-26');
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error?.code, -32600);
    }
  });

  it('refuses a 2025-03-26 batch holding initialize, or two requests with one id, with -32600 naming the message, and answers none of it', async () => {
    const list = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
    const initialize = { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    for (const [body, reason] of [
      [[initialize, list(1)], /^Invalid Request: message 1 of the batch: initialize must be sent alone/],
      [[list(1), initialize], /^Invalid Request: message 2 of the batch: initialize must be sent alone/],
      [[list(1), list(2), list(1)], /^Invalid Request: message 3 of the batch: id 1 is the id of an earlier request/],
      [[list('a'), { jsonrpc: '2.0', id: 'a', method: 'ping' }], /^Invalid Request: message 2 of the batch: id "a" is the id of an earlier request/],
    ] as const) {
      for (const version of ['2025-03-26', null]) {
        const { status, body: answer } = await rawMcp(world, body, version);
        assert.equal(status, 400, JSON.stringify(body));
        assert.deepEqual([answer.id, answer.error?.code], [null, -32600], JSON.stringify(answer));
        assert.match(answer.error?.message ?? '', reason);
      }
    }
    // initialize alone is answered; 1 and "1" are two ids, and a notification has none.
    assert.equal((await rawMcp(world, initialize, '2025-03-26')).status, 200);
    const distinct = await rawMcp(world, [list(1), list('1'), { jsonrpc: '2.0', method: 'notifications/initialized' }], '2025-03-26');
    assert.equal(distinct.status, 200);
    assert.deepEqual((distinct.body as unknown as Array<{ id: unknown }>).map((r) => r.id), [1, '1']);
  });

  it('answers GET and DELETE with 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${world.url}/mcp/skylark`, { method, headers: { authorization: `Bearer ${world.org.assistantKey}`, accept: 'text/event-stream' } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    }
  });

  it('shares the organisation\'s hourly limit with the search endpoint; a spent limit is a tool error', async () => {
    const fresh = await aiToolsWorld({ features: [mcpRouter, searchRouter], orgLimits: { assistantPerOrgPerHour: 3 } });
    onSuiteEnd(fresh.close);
    const { client } = await connect(fresh);
    assert.equal((await client.callTool({ name: 'search', arguments: { query: 'retries' } })).isError, undefined);
    const viaHttp = await fetch(`${fresh.url}/discovery/v1/search/skylark`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fresh.org.assistantKey}` },
      body: JSON.stringify({ query: 'retries' }),
    });
    assert.equal(viaHttp.headers.get('ratelimit-remaining'), '1');
    assert.equal((await client.callTool({ name: 'get_page', arguments: { path: '/quickstart' } })).isError, undefined);
    const spent = await client.callTool({ name: 'search', arguments: { query: 'retries' } });
    assert.equal(spent.isError, true);
    assert.match(textOf(spent), /^Rate limit reached \(3 requests per hour\); try again in \d+ seconds\.$/);
  });
});
