import assert from 'node:assert/strict';
import { readV1, readV2, V2_CLIENTS } from './clients.js';
import { testChat } from './chat.js';
import { assistantWorld, userMessageV1, type AssistantWorld } from './harness.js';

const ANSWER = 'Install it with npm install -g quire-cli [1].';

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

  it('v1: ai@4 reads text, threadId annotation, sources and the deprecation headers', async () => {
    const res = await world.post('v1', { id: 'chat', fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-vercel-ai-data-stream'), 'v1');
    assert.equal(res.headers.get('deprecation'), 'true');
    assert.match(res.headers.get('link') ?? '', /<\/discovery\/v2\/assistant\/docs\/message>; rel="successor-version"/);
    const reading = await readV1(res);
    assert.equal(reading.text, ANSWER);
    assert.deepEqual(reading.errors, []);
    assert.match(reading.threadId ?? '', /^[0-9a-f-]{36}$/);
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

  for (const [status, reason] of [
    [429, /busy \(rate limited\)/],
    [500, /returned an error \(HTTP 500\)/],
  ] as const) {
    it(`v1: a provider HTTP ${status} before any text is an error part saying why`, async () => {
      world.model!.script([{ error: { status, message: 'provider says no', retryAfterSeconds: 1 } }]);
      const reading = await readV1(await world.post('v1', { fp: 'anonymous', messages: [userMessageV1('How do I install the CLI?')] }));
      assert.equal(reading.text, '');
      assert.equal(reading.errors.length, 1);
      assert.match(reading.errors[0]!, reason);
      assert.doesNotMatch(reading.errors[0]!, /provider says no/, "the provider's own message is not shown");
    });
  }

  for (const client of V2_CLIENTS) {
    it(`v2: ${client} readUIMessageStream reads text, sources and metadata.threadId`, async () => {
      const reading = await readV2(client, { url: v2Url(), key: world.org.assistantKey, body: { fp: 'anonymous' }, text: 'How do I install the CLI?' });
      assert.deepEqual(reading.errors, []);
      assert.equal(reading.text, ANSWER);
      assert.match(reading.threadId ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(reading.sources[0]?.url, 'https://docs.example.com/guides/install#install-the-cli');
      assert.equal(reading.sources[0]?.id, 'src_1');
    });

    it(`v2: ${client} keeps the partial answer and reports a mid-stream error`, async () => {
      failNextAnswer('The CLI installs with npm and then it', 12);
      const reading = await readV2(client, { url: v2Url(), key: world.org.assistantKey, body: { fp: 'anonymous' }, text: 'How do I install the CLI?' });
      assert.ok(reading.text.length > 0 && 'The CLI installs with npm and then it'.startsWith(reading.text), reading.text);
      assert.equal(reading.errors.length, 1);
      assert.match(reading.errors[0]!, /language model/);
      assert.match(reading.threadId ?? '', /^[0-9a-f-]{36}$/, 'threadId survives the error (sent on start)');
    });

    it(`v2: ${client} Chat with DefaultChatTransport continues a thread through metadata.threadId`, async () => {
      world.model!.script((req, i) => ({ text: i === 0 ? ANSWER : `Follow-up answer seen ${req.body.messages.length} messages [1].` }));
      const chat = testChat(client, v2Url(), world.org.assistantKey);
      await chat.send('How do I install the CLI?', { fp: 'reader-1' });
      assert.equal(chat.status(), 'ready');
      assert.deepEqual(chat.errors, []);
      const first = chat.finished[0];
      assert.equal(first?.text, ANSWER);
      assert.ok(first?.threadId);
      assert.ok(first.sources.includes('https://docs.example.com/guides/install#install-the-cli'));

      await chat.send('And on Windows?', { fp: 'reader-1', threadId: first.threadId });
      const second = chat.finished[1];
      assert.equal(second?.threadId, first.threadId, 'the same thread continues');
      assert.match(second?.text ?? '', /^Follow-up answer/);
      // The Chat sent the whole history: system prompt + question 1 + answer 1 + question 2.
      const sent = world.model!.requests.at(-1)!.body.messages;
      assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
      assert.equal(sent[2]?.content, ANSWER);
      // "And on Windows?" is sharpened by the earlier question: the Windows passage is retrieved.
      assert.match(String(sent[0]?.content), /PowerShell/);

      const stored = await fetch(`${world.url}/v1/admin/threads/${first.threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
      const transcript = (await stored.json()) as { exchanges: Array<{ question: string; outcome: string; sources: unknown[] }> };
      assert.deepEqual(transcript.exchanges.map((x) => x.question), ['How do I install the CLI?', 'And on Windows?']);
      assert.ok(transcript.exchanges.every((x) => x.outcome === 'complete' && x.sources.length > 0));
    });
  }

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
