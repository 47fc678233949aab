import assert from 'node:assert/strict';
import { EXTRACTIVE_LABEL } from '../../../api/assistant/extractive-answerer.js';
import { readV1, readV2 } from './clients.js';
import { assistantWorld, docsPage, userMessage, userMessageV1, type AssistantWorld } from './harness.js';

interface ErrorBody {
  error: string;
  code: string;
  details?: Array<{ path: string; message: string }>;
}

describe('assistant requests', () => {
  let world: AssistantWorld;
  before(async () => {
    world = await assistantWorld({ script: () => ({ text: 'Answer [1].' }), supportContact: 'support@example.com' });
  });
  after(() => world.close());

  const valid = () => ({ fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });

  async function expect400(version: 'v1' | 'v2', body: unknown, field: string) {
    const res = await world.post(version, body);
    const json = (await res.json()) as ErrorBody;
    assert.equal(res.status, 400, JSON.stringify(json));
    assert.ok(json.details?.some((d) => d.path === field || d.path.startsWith(`${field}.`)), `expected ${field} in ${JSON.stringify(json.details)}`);
  }

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['fp missing', { fp: undefined }, 'fp'],
    ['fp empty', { fp: '' }, 'fp'],
    ['fp too long', { fp: 'x'.repeat(257) }, 'fp'],
    ['messages missing', { messages: undefined }, 'messages'],
    ['messages empty', { messages: [] }, 'messages'],
    ['messages over 200', { messages: Array.from({ length: 201 }, () => userMessage('hi')) }, 'messages'],
    ['last message not from the user', { messages: [userMessage('q'), { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'a' }] }] }, 'messages'],
    ['last message without text', { messages: [{ id: 'u', role: 'user', parts: [{ type: 'file', url: 'x' }] }] }, 'messages'],
    ['unknown role', { messages: [{ id: 'u', role: 'tool', parts: [{ type: 'text', text: 'q' }] }] }, 'messages.0.role'],
    ['text part without text', { messages: [{ id: 'u', role: 'user', parts: [{ type: 'text' }] }] }, 'messages.0.parts.0'],
    ['message without parts', { messages: [{ id: 'u', role: 'user' }] }, 'messages.0.parts'],
    ['message without id', { messages: [{ role: 'user', parts: [{ type: 'text', text: 'q' }] }] }, 'messages.0.id'],
    ['threadId too long', { threadId: 't'.repeat(129) }, 'threadId'],
    ['threadId not a string', { threadId: 42 }, 'threadId'],
    ['threadId with a character no header may carry', { threadId: 'thread\nX-Injected: 1', threadKey: 'k' }, 'threadId'],
    ['threadId beyond Latin-1', { threadId: 'fil-ø-€', threadKey: 'k' }, 'threadId'],
    ['threadKey not a string', { threadKey: 42 }, 'threadKey'],
    ['threadKey empty', { threadKey: '' }, 'threadKey'],
    ['retrievalPageSize 0', { retrievalPageSize: 0 }, 'retrievalPageSize'],
    ['retrievalPageSize 51', { retrievalPageSize: 51 }, 'retrievalPageSize'],
    ['retrievalPageSize fractional', { retrievalPageSize: 2.5 }, 'retrievalPageSize'],
    ['filter with an unknown field', { filter: { colour: 'red' } }, 'filter'],
    ['filter groups not strings', { filter: { groups: [1] } }, 'filter.groups.0'],
    ['context over 20 items', { context: Array.from({ length: 21 }, () => ({ type: 'code', value: 'x' })) }, 'context'],
    ['context of an unknown type', { context: [{ type: 'image', value: 'x' }] }, 'context.0.type'],
    ['context value over 20000 chars', { context: [{ type: 'code', value: 'x'.repeat(20_001) }] }, 'context.0.value'],
    ['currentPath over 200 chars', { currentPath: `/${'p'.repeat(200)}` }, 'currentPath'],
  ];
  for (const [name, patch, field] of cases) {
    it(`400 when ${name}, naming ${field}`, () => expect400('v2', { ...valid(), ...patch }, field));
  }

  it('400 when a v1 message (with content) is sent to v2, and a v2 message to v1', async () => {
    await expect400('v2', { fp: 'a', messages: [userMessageV1('q')] }, 'messages.0.content');
    await expect400('v1', { fp: 'a', messages: [userMessage('q')] }, 'messages.0.content');
  });

  it('v1 messages with only content (AI SDK 4 before 4.2 sends no parts): answered, the history included', async () => {
    const contentOnly = (role: string, content: string, id: string) => ({ id, role, content, createdAt: new Date().toISOString() });
    const before = world.model!.requests.length;
    const res = await world.post('v1', {
      fp: 'a',
      messages: [
        contentOnly('user', 'What is Quire?', 'u1'),
        contentOnly('assistant', 'A documentation assistant.', 'a1'),
        contentOnly('user', 'How do I install the CLI?', 'u2'),
      ],
    });
    assert.equal(res.status, 200);
    assert.equal((await readV1(res)).text, 'Answer [[1]](https://docs.example.com/guides/install#install-the-cli).\n\n```suggestions\n(Installation)[/guides/install]\n```\n');
    const sent = JSON.stringify(world.model!.requests[before]?.body.messages);
    assert.match(sent, /How do I install the CLI\?/);
    assert.match(sent, /A documentation assistant\./);
    // Neither content nor parts with text: still refused.
    await expect400('v1', { fp: 'a', messages: [{ id: 'u', role: 'user', parts: [] }] }, 'messages.0.content');
    await expect400('v1', { fp: 'a', messages: [contentOnly('user', '   ', 'u')] }, 'messages');
    await expect400('v2', { fp: 'a', messages: [userMessage(' \n\t ')] }, 'messages');
  });

  it('accepts the AI SDK extra fields on v2 (id, trigger, messageId, metadata) and v1 (createdAt, data role)', async () => {
    const v2 = await world.post('v2', {
      ...valid(),
      id: 'chat-1',
      trigger: 'regenerate-message',
      messageId: 'm-9',
      messages: [{ ...userMessage('How do I install?'), metadata: { threadId: 'x' } }],
      currentPath: '/guides/install',
      filter: null,
      threadId: null,
    });
    assert.equal(v2.status, 200);
    await v2.text();
    const v1 = await world.post('v1', {
      id: 'chat-1',
      fp: 'a',
      messages: [{ id: 'd', role: 'data', content: '', parts: [] }, userMessageV1('How do I install?')],
    });
    assert.equal(v1.status, 200);
    assert.equal((await readV1(v1)).text, 'Answer [[1]](https://docs.example.com/guides/install#install-the-cli).\n\n```suggestions\n(Installation)[/guides/install]\n```\n');
  });

  it('401 without a key, 403 with an admin key, 404 for another organisation\'s or an unknown domain', async () => {
    const none = await fetch(`${world.url}/discovery/v2/assistant/docs/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(valid()) });
    assert.equal(none.status, 401);
    assert.equal((await world.post('v2', valid(), { key: world.org.adminKey })).status, 403);
    await world.services.tenants.addOrg('other');
    const otherKey = (await world.services.tenants.createKey('other', 'assistant')).secret;
    const foreign = await world.post('v2', valid(), { key: otherKey });
    assert.equal(foreign.status, 404);
    assert.equal(((await foreign.json()) as ErrorBody).code, 'not_found');
    assert.equal((await world.post('v1', valid(), { domain: 'nope' })).status, 404);
  });

  it('puts the passages, the current page and the context snippets in the prompt, with the filter applied', async () => {
    const before = world.model!.requests.length;
    const res = await world.post('v2', {
      fp: 'a',
      messages: [userMessage('How are invoices and webhooks signed?')],
      currentPath: '/guides/webhooks',
      context: [{ type: 'code', value: 'const sig = hmac(secret, body)', path: 'src/verify.ts' }],
      retrievalPageSize: 3,
      filter: { groups: ['public'] },
    });
    await res.text();
    const system = String(world.model!.requests[before]!.body.messages[0]!.content);
    assert.match(system, /\[1\] Webhooks \(https:\/\/docs\.example\.com\/guides\/webhooks#signing-secrets\)/);
    assert.doesNotMatch(system, /Invoices are generated/, 'a staff-only page is filtered out');
    assert.match(system, /The reader is viewing the page \/guides\/webhooks/);
    assert.match(system, /Code the reader shared \(src\/verify\.ts\):\nconst sig = hmac/);
    assert.match(system, /support@example\.com/);
  });

  it('trims a very long conversation to the token budget, keeping the system prompt, passages and latest turns', async () => {
    const long = await assistantWorld({ script: () => ({ text: 'ok [1]' }), env: { QUIRE_ASSISTANT_PROMPT_TOKENS: '2000' } });
    try {
      const history = Array.from({ length: 120 }, (_, i) =>
        i % 2 === 0 ? userMessage(`Question ${i}: ${'words '.repeat(40)}`) : { id: `a${i}`, role: 'assistant', parts: [{ type: 'text', text: `Answer ${i}: ${'reply '.repeat(40)}` }] },
      );
      const res = await long.post('v2', { fp: 'a', messages: [...history, userMessage('How do I install the CLI?')] });
      await res.text();
      const sent = long.model!.requests[0]!.body.messages;
      const chars = sent.reduce((n, m) => n + String(m.content).length, 0);
      assert.ok(chars / 4 <= 2000, `prompt of ~${chars / 4} tokens exceeds the budget`);
      assert.equal(sent[0]?.role, 'system');
      assert.match(String(sent[0]?.content), /Install the Quire CLI/);
      assert.equal(sent.at(-1)?.content, 'How do I install the CLI?');
      assert.match(String(sent.at(-2)?.content), /^Answer 119:/, 'the latest turn is kept');
      assert.ok(!sent.some((m) => String(m.content).startsWith('Question 0:')), 'the oldest turns are dropped');
      assert.ok(sent.length > 4 && sent.length < 121);
    } finally {
      await long.close();
    }
  });

  it('streams the answer with every header set before it (request id, limits, thread) and ends it, in v2 and v1', async () => {
    for (const version of ['v2', 'v1'] as const) {
      const res = await world.post(version, version === 'v2' ? valid() : { fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', version === 'v2' ? /^text\/event-stream/ : /^text\/plain/);
      assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      assert.ok(Number(res.headers.get('ratelimit-limit')) > 0, 'the limit headers');
      assert.ok(res.headers.get('x-thread-id') && res.headers.get('x-thread-key'), 'a new thread and its key');
      assert.equal(res.headers.get('deprecation'), version === 'v1' ? 'true' : null);
      const text = await res.text();
      assert.ok(version === 'v2' ? text.endsWith('data: [DONE]\n\n') : /\nd:\{"finishReason":"stop".*\n$/.test(text), `the stream ends: ${text.slice(-80)}`);
    }
  });

  it('aborts the model request within a chunk when the client disconnects, and stores the cut answer', async () => {
    const model = world.model!;
    model.chunkDelayMs = 30;
    model.script(() => ({ text: 'word '.repeat(200) }));
    const abortedBefore = model.aborted;
    const controller = new AbortController();
    const res = await world.post('v2', valid(), { signal: controller.signal });
    const threadId = res.headers.get('x-thread-id');
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('text-delta')) seen += new TextDecoder().decode((await reader.read()).value);
    const chunksAtAbort = model.chunksWritten;
    controller.abort();
    // Waits for the model server to see the request go away (the test's timeout is the only clock).
    while (model.aborted === abortedBefore) await new Promise((r) => setTimeout(r, 10));
    model.chunkDelayMs = 0;
    model.script(() => ({ text: 'Answer [1].' }));
    assert.equal(model.aborted, abortedBefore + 1);
    assert.ok(model.chunksWritten - chunksAtAbort <= 2, `model kept streaming ${model.chunksWritten - chunksAtAbort} chunks`);
    let transcript: { exchanges: Array<{ outcome: string }> } | undefined;
    for (let i = 0; i < 50 && !transcript; i++) {
      const r = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
      if (r.status === 200) transcript = (await r.json()) as typeof transcript;
      else await new Promise((res2) => setTimeout(res2, 20));
    }
    assert.equal(transcript?.exchanges[0]?.outcome, 'aborted');
  });

  it('the admin thread route answers only the thread\'s own organisation', async () => {
    const res = await world.post('v2', valid());
    const threadId = res.headers.get('x-thread-id');
    await res.text();
    const own = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(own.status, 200);
    await world.services.tenants.addOrg('rival');
    const rivalAdmin = (await world.services.tenants.createKey('rival', 'admin')).secret;
    const rival = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${rivalAdmin}` } });
    assert.equal(rival.status, 404);
    const assistantKey = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.assistantKey}` } });
    assert.equal(assistantKey.status, 403);
  });
});

describe('assistant without a model (extractive mode)', () => {
  let world: AssistantWorld;
  before(async () => {
    world = await assistantWorld({ supportContact: 'help@example.com' });
  });
  after(() => world.close());

  it('answers in whole sentences of the best passages, labelled, linked to their pages, in v2 and v1', async () => {
    const v2 = await readV2('ai5', {
      url: `${world.url}/discovery/v2/assistant/docs/message`,
      key: world.org.assistantKey,
      body: { fp: 'a' },
      text: 'How do I install the CLI?',
    });
    assert.ok(v2.text.startsWith(EXTRACTIVE_LABEL));
    assert.match(v2.text, /\nInstall the Quire CLI with npm install -g quire-cli\. .*\[\[1\]\]\(https:\/\/docs\.example\.com\/guides\/install#install-the-cli\)/);
    assert.equal(v2.sources[0]?.url, 'https://docs.example.com/guides/install#install-the-cli');
    const v1 = await readV1(await world.post('v1', { fp: 'a', messages: [userMessageV1('How do I install the CLI?')] }));
    assert.ok(v1.text.startsWith(EXTRACTIVE_LABEL));
    assert.ok(v1.sources.length > 0);
  });

  // Names no page holds, though pages share the questions' other words (`install`, `CLI`): written as one (`WinGet`), or capitalised inside the sentence (`Heroku`).
  for (const question of ['Can I install the CLI with WinGet?', 'Can I install the CLI on Heroku?']) {
    it(`declines "${question}", naming the closest pages instead of quoting the install page`, async () => {
      const v2 = await readV2('ai5', { url: `${world.url}/discovery/v2/assistant/docs/message`, key: world.org.assistantKey, body: { fp: 'a' }, text: question });
      assert.match(v2.text, /^The documentation does not seem to cover this question\. Please contact help@example\.com\. The closest pages: /);
      assert.doesNotMatch(v2.text, /npm install -g quire-cli/);
    });
  }

  it('declines a name only a page of another access group holds exactly as one no page holds; a reader of that group is answered', async () => {
    // Only readers of `staff` see the page; no other test of this world asks as one.
    await world.docIndex.applyChanges(world.domainId, {
      upserts: [docsPage('/internal/packaging', 'Packaging', [{ heading: 'Chocolatey', anchor: 'chocolatey', text: 'Staff install the CLI with Chocolatey on build machines.' }], ['staff'])],
      removals: [],
    });
    const ask = (text: string, groups?: string[]) =>
      readV2('ai5', { url: `${world.url}/discovery/v2/assistant/docs/message`, key: world.org.assistantKey, body: { fp: 'a', ...(groups ? { filter: { groups } } : {}) }, text });
    const onNoPage = await ask('Can I install the CLI with Scoop?');
    assert.match(onNoPage.text, /^The documentation does not seem to cover this question\./);
    for (const groups of [undefined, ['partners']]) {
      const hidden = await ask('Can I install the CLI with Chocolatey?', groups);
      assert.equal(hidden.text, onNoPage.text, `groups ${String(groups)}`);
      assert.deepEqual(hidden.sources, onNoPage.sources, `groups ${String(groups)}`);
    }
    const member = await ask('Can I install the CLI with Chocolatey?', ['staff']);
    assert.ok(member.text.startsWith(EXTRACTIVE_LABEL), member.text);
    assert.match(member.text, /Staff install the CLI with Chocolatey on build machines\./);
  });

  it('says plainly that the docs do not cover a question nothing matches, with the support contact', async () => {
    const v1 = await readV1(await world.post('v1', { fp: 'a', messages: [userMessageV1('zebra xylophone quantum')] }));
    assert.match(v1.text, /documentation does not cover this question\. Please contact help@example\.com/);
    assert.deepEqual(v1.sources, []);
  });
});
