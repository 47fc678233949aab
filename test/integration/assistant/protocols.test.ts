import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readV1, readV2, V2_CLIENTS, type ClientReading } from './clients.js';
import { testChat } from './chat.js';
import { v1Chat } from './chat-v1.js';
import { assistantWorld, userMessage, userMessageV1, type AssistantWorld } from './harness.js';
import { sseChunks, strictChunkProblems, V1_CODES } from './strict-chunks.js';

const ANSWER = 'Install it with npm install -g quire-cli [1].';
/** The answer as the reader gets it: the marker is a link to the cited page's best section. */
const LINKED = 'Install it with npm install -g quire-cli [[1]](https://docs.example.com/guides/install#install-the-cli).';
/** Every answer closes with the pages it drew on, as a `suggestions` block of site-relative links. */
const SUGGESTIONS = /\n\n```suggestions\n\(Installation\)\[\/guides\/install\]\n(?:\(.+\)\[\/.+\]\n)*```\n$/;

/** The retrieval, as Mintlify's clients read it: a `search` tool call whose result lists the hits. */
function assertSearchTool(reading: Pick<ClientReading, 'search'>, query: RegExp) {
  assert.equal(reading.search?.toolName, 'search');
  assert.match(String(reading.search.query), query);
  const hit = reading.search.hits[0];
  assert.equal(hit?.path, '/guides/install');
  assert.equal(hit.url, 'https://docs.example.com/guides/install#install-the-cli', 'absolute, on the domain base URL');
  assert.match(hit.content, /npm install -g quire-cli/);
  assert.equal(hit.metadata.title, 'Installation');
}

describe('assistant streams read by the real AI SDK clients', () => {
  let world: AssistantWorld;

  before(async () => {
    world = await assistantWorld({ script: () => ({ text: ANSWER }) });
  });
  after(() => world.close());
  afterEach(() => {
    world.model!.script(() => ({ text: ANSWER }));
    world.model!.chunkDelayMs = 0;
  });

  /** The next answer breaks off; a small delay lets the chunks before the break reach us. */
  const failNextAnswer = (text: string, afterChars: number) => {
    world.model!.chunkDelayMs = 5;
    world.model!.script([{ failMidStream: { text, afterChars } }]);
  };

  const v2Url = () => `${world.url}/discovery/v2/assistant/${world.domainId}/message`;

  it('v1: ai@4 reads text, the search tool call, thread annotation, sources and the deprecation headers', async () => {
    const res = await world.post('v1', { id: 'chat', fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-vercel-ai-data-stream'), 'v1');
    assert.equal(res.headers.get('deprecation'), 'true');
    assert.match(res.headers.get('link') ?? '', /<\/discovery\/v2\/assistant\/docs\/message>; rel="successor-version"/);
    const threadHeader = res.headers.get('x-thread-id');
    const keyHeader = res.headers.get('x-thread-key');
    const reading = await readV1(res);
    assert.ok(reading.text.startsWith(LINKED), reading.text);
    assert.match(reading.text, SUGGESTIONS);
    assert.deepEqual(reading.errors, []);
    assert.match(reading.threadId ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(reading.threadId, threadHeader);
    assert.match(reading.threadKey ?? '', /^tk_[A-Za-z0-9_-]{43}$/);
    assert.equal(reading.threadKey, keyHeader);
    assertSearchTool(reading, /install the CLI/);
    assert.equal(reading.sources[0]?.url, 'https://docs.example.com/guides/install#install-the-cli');
    assert.equal(reading.sources[0]?.id, 'src_1');
    assert.match(reading.sources[0]?.title ?? '', /Installation/);
  });

  it('v1: a mid-stream model failure is an error part after the partial answer, and the thread is kept', async () => {
    failNextAnswer('The CLI installs with npm and then it', 12);
    const res = await world.post('v1', { fp: 'user-7', messages: [userMessageV1('How do I install the CLI?')] });
    const reading = await readV1(res);
    assert.ok(reading.text.length > 0 && 'The CLI installs with npm and then it'.startsWith(reading.text), reading.text);
    assert.equal(reading.errors.length, 1);
    assert.match(reading.errors[0]!, /language model/);
    const stored = await fetch(`${world.url}/v1/admin/threads/${reading.threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(stored.status, 200);
    const transcript = (await stored.json()) as { exchanges: Array<{ answer: string; outcome: string; fp: string }> };
    assert.equal(transcript.exchanges[0]?.outcome, 'error');
    assert.equal(transcript.exchanges[0]?.answer, reading.text);
    assert.equal(transcript.exchanges[0]?.fp, 'user-7');
  });

  it('v1: sends one streamed Chat Completions request with the key as a bearer token', async () => {
    const before = world.model!.requests.length;
    await readV1(await world.post('v1', { fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] }));
    const sent = world.model!.requests.slice(before);
    assert.equal(sent.length, 1);
    assert.match(sent[0]!.path, /\/chat\/completions$/);
    assert.equal(sent[0]!.headers.authorization, 'Bearer sk-test-secret');
    assert.equal(sent[0]!.body.model, 'test-model');
    assert.equal(sent[0]!.body.stream, true);
    assert.deepEqual(sent[0]!.body.stream_options, { include_usage: true });
    assert.equal(sent[0]!.body.messages[0]?.role, 'system');
  });

  for (const [status, reason, code] of [
    [429, /busy \(rate limited\)/, 'model_rate_limited'],
    [500, /returned an error \(HTTP 500\)/, 'model_failed'],
  ] as const) {
    it(`v1: a provider HTTP ${status} before any text is an error part saying why`, async () => {
      world.model!.script([{ error: { status, message: 'provider says no', retryAfterSeconds: 1 } }]);
      const reading = await readV1(await world.post('v1', { fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] }));
      assert.equal(reading.text, '');
      assert.equal(reading.errors.length, 1);
      assert.match(reading.errors[0]!, reason);
      assert.equal(reading.errorCode, code, 'the annotation before the error part carries its code');
      assert.doesNotMatch(reading.errors[0]!, /provider says no/, "the provider's own message is not shown");
    });
  }

  for (const client of V2_CLIENTS) {
    it(`v2: ${client} readUIMessageStream reads the search tool part, text, sources and the thread metadata`, async () => {
      const reading = await readV2(client, { url: v2Url(), key: world.org.assistantKey, body: { fp: 'anonymous' }, text: 'How do I install the CLI?' });
      assert.deepEqual(reading.errors, []);
      assert.ok(reading.text.startsWith(LINKED), reading.text);
      assert.match(reading.text, SUGGESTIONS);
      assert.match(reading.threadId ?? '', /^[0-9a-f-]{36}$/);
      assert.match(reading.threadKey ?? '', /^tk_/);
      assertSearchTool(reading, /install the CLI/);
      assert.equal(reading.sources[0]?.url, 'https://docs.example.com/guides/install#install-the-cli');
      assert.equal(reading.sources[0]?.id, 'src_1');
    });

    it(`v2: ${client} keeps the partial answer and reports a mid-stream error`, async () => {
      failNextAnswer('The CLI installs with npm and then it', 12);
      const reading = await readV2(client, { url: v2Url(), key: world.org.assistantKey, body: { fp: 'anonymous' }, text: 'How do I install the CLI?' });
      assert.ok(reading.text.length > 0 && 'The CLI installs with npm and then it'.startsWith(reading.text), reading.text);
      assert.equal(reading.errors.length, 1);
      assert.match(reading.errors[0]!, /language model/);
      assert.equal(reading.errorCode, 'model_failed', 'the error\'s code, merged into the message metadata');
      assert.match(reading.threadId ?? '', /^[0-9a-f-]{36}$/, 'threadId survives the error (sent on start)');
    });

    it(`v2: ${client} Chat with DefaultChatTransport continues a thread through metadata threadId and threadKey`, async () => {
      world.model!.script((req, i) => ({ text: i === 0 ? ANSWER : `Follow-up answer seen ${req.body.messages.length} messages [1].` }));
      const chat = testChat(client, v2Url(), world.org.assistantKey);
      await chat.send('How do I install the CLI?', { fp: 'reader-1' });
      assert.equal(chat.status(), 'ready');
      assert.deepEqual(chat.errors, []);
      const first = chat.finished[0];
      assert.ok(first, 'the first answer finished');
      assert.ok(first.text.startsWith(LINKED));
      assert.ok(first.threadId && first.threadKey);
      assert.ok(first.sources.includes('https://docs.example.com/guides/install#install-the-cli'));
      assertSearchTool(first, /install the CLI/);

      // The Chat sends the first answer back whole, its `tool-search` part included: accepted.
      await chat.send('And on Windows?', { fp: 'reader-1', threadId: first.threadId, threadKey: first.threadKey });
      assert.deepEqual(chat.errors, []);
      const second = chat.finished[1];
      assert.equal(second?.threadId, first.threadId, 'the same thread continues');
      assert.equal(second.threadKey, undefined, 'the key is shown only when the thread is created');
      assert.match(second.text, /^Follow-up answer/);
      // The Chat sent the whole history: system prompt + question 1 + answer 1 + question 2.
      const sent = world.model!.requests.at(-1)!.body.messages;
      assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
      assert.equal(sent[2]?.content, ANSWER, 'the earlier answer reaches the model without its suggestions block or citation links');
      // "And on Windows?" is sharpened by the earlier question: the Windows passage is retrieved.
      assert.match(String(sent[0]?.content), /PowerShell/);

      const stored = await fetch(`${world.url}/v1/admin/threads/${first.threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
      const transcript = (await stored.json()) as { exchanges: Array<{ question: string; outcome: string; sources: unknown[] }> };
      assert.deepEqual(transcript.exchanges.map((x) => x.question), ['How do I install the CLI?', 'And on Windows?']);
      assert.ok(transcript.exchanges.every((x) => x.outcome === 'complete' && x.sources.length > 0));
    });
  }

  it("v2: the Chat's regenerate answers again in place: the new answer replaces the old one (and those after it) in the thread", async () => {
    let answers = 0;
    world.model!.script(() => ({ text: `Answer number ${++answers} [1].` }));
    const transcript = async (threadId: string) => {
      const stored = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
      return ((await stored.json()) as { exchanges: Array<{ question: string; answer: string }> }).exchanges.map((x) => [x.question, x.answer.slice(0, 15)]);
    };
    const chat = testChat('ai5', v2Url(), world.org.assistantKey);
    await chat.send('How do I install the CLI?', { fp: 'reader-1' });
    const { threadId, threadKey } = chat.finished[0]!;
    const thread = { fp: 'reader-1', threadId, threadKey };
    await chat.send('And on Windows?', thread);
    await chat.regenerate(thread);
    assert.deepEqual(chat.errors, []);
    assert.deepEqual(await transcript(threadId!), [
      ['How do I install the CLI?', 'Answer number 1'],
      ['And on Windows?', 'Answer number 3'],
    ]);

    // A client that sends only the question (the widget's way) gets the thread before the replaced answer as history.
    const before = world.model!.requests.length;
    const res = await world.post('v2', { ...thread, trigger: 'regenerate-message', messages: [{ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And on Windows?' }] }] });
    await res.text();
    const sent = world.model!.requests[before]!.body.messages;
    assert.deepEqual(sent.slice(1).map((m) => [m.role, String(m.content).slice(0, 15)]), [
      ['user', 'How do I instal'],
      ['assistant', 'Answer number 1'],
      ['user', 'And on Windows?'],
    ]);

    // Answering the first question again drops the exchanges after it: the Chat shows only that one now.
    const firstAnswer = chat.messages().find((m) => m.role === 'assistant')!;
    await chat.regenerate(thread, firstAnswer.id);
    assert.deepEqual(await transcript(threadId!), [['How do I install the CLI?', 'Answer number 5']]);
    assert.deepEqual(chat.messages().map((m) => m.role), ['user', 'assistant']);
  });

  it('v1: a useChat-style client sends the tool invocation back in its history; the thread continues with its key', async () => {
    world.model!.script((req, i) => ({ text: i === 0 ? ANSWER : `Second answer after ${req.body.messages.length} messages [1].` }));
    const chat = v1Chat(`${world.url}/discovery/v1/assistant/${world.domainId}/message`, world.org.assistantKey);
    const first = await chat.send('How do I install the CLI?', { fp: 'reader-v1' });
    const invocation = first.toolInvocations?.[0];
    assert.equal(invocation?.toolName, 'search');
    assert.equal(invocation.state, 'result');
    assert.ok(first.parts.some((p) => p.type === 'tool-invocation'), 'the tool invocation is a part of the message');
    const thread = first.annotations?.[0];
    assert.ok(thread && typeof thread === 'object' && !Array.isArray(thread));
    const { threadId, threadKey } = thread as { threadId?: string; threadKey?: string };
    assert.ok(threadId && threadKey);

    const second = await chat.send('And on Windows?', { fp: 'reader-v1', threadId, threadKey });
    assert.match(second.content, /^Second answer/);
    const sent = world.model!.requests.at(-1)!.body.messages;
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
  });

  it('v2: every chunk passes the strict releases (5.0.0, 6.0.0, 7.0.0) field by field; v1 uses only known part codes', async () => {
    const v2 = await world.post('v2', { fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });
    const chunks = sseChunks(await v2.text());
    assert.deepEqual(chunks.flatMap(strictChunkProblems), []);
    assert.deepEqual(
      chunks.map((c) => c.type).filter((t, i, all) => t !== all[i - 1]),
      ['start', 'start-step', 'tool-input-available', 'tool-output-available', 'finish-step', 'start-step', 'text-start', 'text-delta', 'text-end', 'source-url', 'finish-step', 'finish'],
      'the search step, then the answer step',
    );
    const v1 = await world.post('v1', { fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] });
    const lines = (await v1.text()).split('\n').filter(Boolean);
    for (const line of lines) {
      const m = /^([0-9a-z]):(.*)$/.exec(line);
      assert.ok(m && V1_CODES.has(m[1]!), line);
      assert.doesNotThrow(() => JSON.parse(m[2]!), line);
    }
    assert.deepEqual(lines.map((l) => l[0]).filter((c, i, all) => c !== all[i - 1]), ['f', '8', '9', 'a', 'e', 'f', '0', 'h', 'e', 'd']);
  });

  it('continuing needs the thread key: none, a wrong one or an unknown thread are the same 404, and only its hash is stored', async () => {
    const created = await world.post('v2', { fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });
    const threadId = created.headers.get('x-thread-id')!;
    const threadKey = created.headers.get('x-thread-key')!;
    await created.text();
    const next = (extra: Record<string, unknown>) => world.post('v2', { fp: 'anonymous', messages: [userMessage('And on Windows?')], ...extra });
    const refusals = [{ threadId }, { threadId, threadKey: `${threadKey}x` }, { threadId: 'no-such-thread', threadKey }];
    const bodies: unknown[] = [];
    for (const extra of refusals) {
      const res = await next(extra);
      assert.equal(res.status, 404, JSON.stringify(extra));
      bodies.push(((await res.json()) as { code: string }).code);
    }
    assert.deepEqual(bodies, ['not_found', 'not_found', 'not_found']);
    const ok = await next({ threadId, threadKey });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-thread-id'), threadId);
    assert.equal(ok.headers.get('x-thread-key'), null, 'the key is never shown again');
    await ok.text();
    // Everything the embedded stores wrote (the thread database and its journal included).
    const dataDir = world.services.config.dataDir;
    const files = (await fs.readdir(dataDir, { recursive: true })).map((f) => path.join(dataDir, f));
    const stored = (await Promise.all(files.map((f) => fs.readFile(f, 'latin1').catch(() => '')))).join('');
    assert.ok(stored.includes(createHash('sha256').update(threadKey).digest('hex')), 'the hash is stored');
    assert.ok(!stored.includes(threadKey), 'the key itself is not');
    const admin = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.doesNotMatch(await admin.text(), /keyHash|tk_/);
  });

  for (const [finishReason, said, code] of [
    ['length', /cut off: the language model reached its output limit/, 'output_limit'],
    ['content_filter', /content filter withheld the rest/, 'content_filter'],
  ] as const) {
    it(`v2: an answer the model cut short (finish_reason ${finishReason}) keeps its text, says why in an error part, and is kept as broken off`, async () => {
      world.model!.script([{ text: 'Install the CLI with', finishReason }]);
      const reading = await readV2('ai5', { url: v2Url(), key: world.org.assistantKey, body: { fp: 'anonymous' }, text: 'How do I install the CLI?' });
      assert.equal(reading.text, 'Install the CLI with');
      assert.equal(reading.errors.length, 1);
      assert.match(reading.errors[0]!, said);
      assert.equal(reading.errorCode, code);
      const stored = await fetch(`${world.url}/v1/admin/threads/${reading.threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
      const transcript = (await stored.json()) as { exchanges: Array<{ answer: string; outcome: string }> };
      assert.deepEqual(
        transcript.exchanges.map(({ answer, outcome }) => ({ answer, outcome })),
        [{ answer: 'Install the CLI with', outcome: 'error' }],
      );
    });
  }

  it('v2: a model that answers nothing is an error saying so, not an empty answer told as a success', async () => {
    world.model!.script([{ text: '' }]);
    const reading = await readV2('ai5', { url: v2Url(), key: world.org.assistantKey, body: { fp: 'anonymous' }, text: 'How do I install the CLI?' });
    assert.equal(reading.text, '', 'no suggestions block either');
    assert.equal(reading.errors.length, 1);
    assert.match(reading.errors[0]!, /returned an empty answer/);
    assert.equal(reading.errorCode, 'model_failed');
  });

  it('v2: a failed answer passes the strict releases field by field, its code in a message-metadata chunk before the error', async () => {
    failNextAnswer('The CLI installs with npm and then it', 12);
    const v2 = await world.post('v2', { fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });
    const chunks = sseChunks(await v2.text());
    assert.deepEqual(chunks.flatMap(strictChunkProblems), []);
    assert.deepEqual(chunks.slice(-2).map((c) => c.type), ['message-metadata', 'error']);
    assert.deepEqual(chunks.at(-2)?.messageMetadata, { errorCode: 'model_failed' });
  });

  it('v2: the Chat reports a mid-stream error through onError and keeps the partial text', async () => {
    failNextAnswer('Partial words before the failure happens', 10);
    const chat = testChat('ai5', v2Url(), world.org.assistantKey);
    await chat.send('How do I install the CLI?', { fp: 'anonymous' });
    assert.equal(chat.status(), 'error');
    assert.match(chat.errors[0]?.message ?? '', /language model/);
    const assistant = chat.messages().find((m) => m.role === 'assistant');
    assert.ok(assistant && assistant.text.length > 0 && 'Partial words before the failure happens'.startsWith(assistant.text));
  });
});
