import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  createModelPort,
  ModelStreamError,
  PermanentModelError,
  RateLimitedModelError,
  TransientModelError,
  type ModelPort,
} from '../../../core/model/index.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { testConfig } from '../../support/services.js';

const HI = [{ role: 'user' as const, content: 'hi' }];

async function portFor(fake: { baseUrl: string }, env: Record<string, string> = {}): Promise<ModelPort> {
  const config = await testConfig({ QUIRE_MODEL_BASE_URL: fake.baseUrl, QUIRE_MODEL_API_KEY: 'sk-port', QUIRE_MODEL: 'chat-model', ...env });
  const port = createModelPort(config.model!);
  onSuiteEnd(() => port.close());
  return port;
}

async function streamText(port: ModelPort, signal = new AbortController().signal) {
  let text = '';
  let usage;
  for await (const batch of port.streamChat({ model: 'chat-model', messages: HI, signal })) {
    text += batch.text;
    usage = batch.usage ?? usage;
  }
  return { text, usage };
}

describe('model port against an OpenAI-compatible endpoint (the scripted model server stands in for it)', () => {
  let fake: FakeModelServer;
  let port: ModelPort;
  before(async () => {
    fake = await startFakeModel();
    port = await portFor(fake);
  });
  beforeEach(() => {
    fake.chunkDelayMs = 0;
  });

  it('streams tool calls whole, in the last batch, after the text; offers no tools when given none', async () => {
    const tool = { type: 'function' as const, function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };
    fake.script([
      { text: 'Let me look.', toolCalls: [{ name: 'search', arguments: { query: 'webhooks' }, id: 'call_a' }, { name: 'search', arguments: '{"query":"keys"}', id: 'call_b' }] },
      { text: 'No tools here.' },
    ]);
    const before = fake.requests.length;
    const batches = [];
    for await (const batch of port.streamChat({ model: 'chat-model', messages: HI, tools: [tool], signal: new AbortController().signal })) batches.push(batch);
    assert.equal(batches.map((b) => b.text).join(''), 'Let me look.');
    assert.deepEqual(batches.at(-1)?.toolCalls, [
      { id: 'call_a', name: 'search', arguments: '{"query":"webhooks"}' },
      { id: 'call_b', name: 'search', arguments: '{"query":"keys"}' },
    ]);
    assert.ok(batches.slice(0, -1).every((b) => b.toolCalls === undefined));
    assert.deepEqual(fake.requests[before]?.body.tools, [tool]);
    assert.equal(fake.requests[before]?.body.tool_choice, 'auto');
    assert.deepEqual(await streamText(port), { text: 'No tools here.', usage: { promptTokens: 10, completionTokens: 3 } });
    assert.equal(fake.requests.at(-1)?.body.tools, undefined);
  });

  it('streams an answer with its usage, as one streamed request with a bearer key', async () => {
    fake.script([{ text: 'Hello there, world', usage: { prompt: 12, completion: 3 } }]);
    const before = fake.requests.length;
    assert.deepEqual(await streamText(port), { text: 'Hello there, world', usage: { promptTokens: 12, completionTokens: 3 } });
    const sent = fake.requests.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.path, '/v1/chat/completions');
    assert.equal(sent[0]!.headers.authorization, 'Bearer sk-port');
    assert.equal(sent[0]!.body.stream, true);
    assert.deepEqual(sent[0]!.body.stream_options, { include_usage: true });
  });

  it('answers tool calls and embeddings through the same port', async () => {
    fake.script([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.md' } }] }]);
    const completion = await port.chat({ model: 'chat-model', messages: HI, tools: [] });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    assert.ok(call?.type === 'function' && call.function.name === 'read_file');
    const vectors = await port.embed({ model: 'embed-model', texts: ['a', 'b', 'c'] });
    assert.equal(vectors.length, 3);
    assert.equal(fake.requests.at(-1)!.body.encoding_format, 'float');
  });

  const cases = [
    { status: 400, check: (e: unknown) => e instanceof PermanentModelError && !e.badCredentials && e.status === 400 },
    { status: 401, check: (e: unknown) => e instanceof PermanentModelError && e.badCredentials },
    { status: 404, check: (e: unknown) => e instanceof PermanentModelError && !e.retryable },
    { status: 429, retryAfterSeconds: 7, check: (e: unknown) => e instanceof RateLimitedModelError && e.retryAfterMs === 7000 },
    { status: 429, retryAfterMs: 1500, retryAfterSeconds: 2, check: (e: unknown) => e instanceof RateLimitedModelError && e.retryAfterMs === 1500 },
    { status: 429, check: (e: unknown) => e instanceof RateLimitedModelError && e.retryAfterMs === undefined },
    { status: 503, retryAfterSeconds: 3, check: (e: unknown) => e instanceof TransientModelError && !(e instanceof RateLimitedModelError) && e.retryAfterMs === 3000 },
    { status: 500, check: (e: unknown) => e instanceof TransientModelError && e.retryable && e.status === 500 },
  ];
  for (const { status, check, ...headers } of cases) {
    const label = `${status}${headers.retryAfterMs ? ' with retry-after-ms' : headers.retryAfterSeconds ? ' with Retry-After' : ''}`;
    it(`classifies HTTP ${label} the same way for streamed answers, tool calls and embeddings, with one request each`, async () => {
      const error = { status, message: 'provider says no', ...headers };
      const failing = await startFakeModel(() => ({ error }));
      failing.failEmbeddings = error;
      const own = await portFor(failing);
      await assert.rejects(streamText(own), check);
      await assert.rejects(own.chat({ model: 'chat-model', messages: HI, tools: [] }), check);
      await assert.rejects(own.embed({ model: 'embed-model', texts: ['a'] }), check);
      assert.equal(failing.requests.length, 3, 'the client did not retry');
    });
  }

  it('says which status and what the provider said, in one bounded line', async () => {
    fake.script([{ error: { status: 400, message: `context too long\n${'x'.repeat(1000)}` } }]);
    await assert.rejects(port.chat({ model: 'chat-model', messages: HI, tools: [] }), (e: unknown) => {
      assert.ok(e instanceof PermanentModelError);
      assert.match(e.message, /^the model endpoint answered 400: context too long$/);
      return true;
    });
  });

  it('masks the endpoint\'s key where the provider quotes it in its error (it would reach the job, its events and history)', async () => {
    const key = 'gsk_QUOTEDKEY0123456789abcdef';
    const quoting = await portFor(fake, { QUIRE_MODEL_API_KEY: key });
    fake.script([{ error: { status: 401, message: `Incorrect API key provided: ${key}. Find yours at the console.` } }, { error: { status: 401, message: `Invalid key ${key}` } }]);
    await assert.rejects(quoting.chat({ model: 'chat-model', messages: HI, tools: [] }), (e: unknown) => {
      assert.ok(e instanceof PermanentModelError);
      assert.equal(e.message, 'the model endpoint answered 401: Incorrect API key provided: [redacted]. Find yours at the console.');
      return true;
    });
    await assert.rejects(streamText(quoting), (e: unknown) => e instanceof PermanentModelError && e.message === 'the model endpoint answered 401: Invalid key [redacted]');
  });

  it('an endpoint that cannot be reached is transient, for every call', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port: free } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const own = await portFor({ baseUrl: `http://127.0.0.1:${free}/v1` });
    const unreachable = (e: unknown) => e instanceof TransientModelError && e.status === undefined && /could not be reached/.test(e.message);
    await assert.rejects(streamText(own), unreachable);
    await assert.rejects(own.chat({ model: 'chat-model', messages: HI, tools: [] }), unreachable);
    await assert.rejects(own.embed({ model: 'embed-model', texts: ['a'] }), unreachable);
  });

  it('a provider that sends nothing for QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS is given up as transient, saying so, instead of holding the reader', async () => {
    const impatient = await portFor(fake, { QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS: '300' });
    fake.script([{ hang: true }]);
    await assert.rejects(streamText(impatient), (e: unknown) => e instanceof TransientModelError && /sent nothing for 0\.3 s before its answer \(QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS\)/.test(e.message));
  });

  it("a completion's timeoutMs bounds it in place of the client's 600 s, as a transient timeout", async () => {
    fake.script([{ hang: true }]);
    await assert.rejects(port.chat({ model: 'chat-model', messages: HI, tools: [], timeoutMs: 300 }), (e: unknown) => e instanceof TransientModelError && /timed out/i.test(e.message));
  });

  it('a stream cut short is transient, not a short answer', async () => {
    fake.chunkDelayMs = 2;
    fake.script([{ failMidStream: { text: 'The CLI installs with npm and then it', afterChars: 12 } }]);
    await assert.rejects(streamText(port), (e: unknown) => e instanceof TransientModelError && e.status === undefined);
  });

  it('a 200 that is a JSON document instead of an event stream (a gateway answering its error so) is a transient error naming it, not an empty answer', async () => {
    fake.script([{ body200: { error: { message: 'upstream overloaded' } } }]);
    await assert.rejects(streamText(port), (e: unknown) => e instanceof TransientModelError && /without a chat completion or its stream: upstream overloaded/.test(e.message));
  });

  it('an error event inside a stream that began well is a ModelStreamError, after the text before it', async () => {
    fake.chunkDelayMs = 2;
    fake.script([{ failMidStream: { text: 'The CLI installs with npm and then it', afterChars: 12, errorEvent: 'overloaded' } }]);
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const batch of port.streamChat({ model: 'chat-model', messages: HI, signal: new AbortController().signal })) text += batch.text;
      })(),
      (e: unknown) => e instanceof ModelStreamError && e.retryable && /overloaded/.test(e.message),
    );
    assert.ok(text.length >= 12 && 'The CLI installs with npm and then it'.startsWith(text), text);
  });

  it('keeps the text that came in the same network read as an error event: it is the partial answer, yielded before the error', async () => {
    // One write holding two text chunks and then the error: a fast provider's last tokens and its error arrive together.
    const chunkOf = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunkOf('The CLI ') + chunkOf('installs') + `data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const one = await portFor({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const batch of one.streamChat({ model: 'chat-model', messages: HI, signal: new AbortController().signal })) text += batch.text;
      })(),
      (e: unknown) => e instanceof ModelStreamError && /overloaded/.test(e.message),
    );
    assert.equal(text, 'The CLI installs');
  });

  it('sends a lone surrogate (a reader\'s `\\ud800`) as U+FFFD, streamed or not: strict providers refuse the whole request over it', async () => {
    fake.script([{ text: 'Fine.' }, { text: 'Fine too.' }]);
    const messages = [{ role: 'user' as const, content: 'How do I \ud800 install 😀?' }];
    for await (const batch of port.streamChat({ model: 'chat-model', messages, signal: new AbortController().signal })) void batch;
    await port.chat({ model: 'chat-model', messages, tools: [] });
    const sent = fake.requests.slice(-2).map((r) => r.body.messages[0]?.content);
    assert.deepEqual(sent, ['How do I \uFFFD install 😀?', 'How do I \uFFFD install 😀?']);
  });

  it("passes on the provider's finish reason, in the batch it came in", async () => {
    fake.script([{ text: 'Cut off in the mid', finishReason: 'length' }, { text: 'Whole.' }]);
    const reasons = async () => {
      const seen: string[] = [];
      for await (const batch of port.streamChat({ model: 'chat-model', messages: HI, signal: new AbortController().signal })) if (batch.finishReason) seen.push(batch.finishReason);
      return seen;
    };
    assert.deepEqual(await reasons(), ['length']);
    assert.deepEqual(await reasons(), ['stop']);
  });

  it("rethrows the caller's abort as it came, unclassified", async () => {
    fake.chunkDelayMs = 20;
    fake.script([{ text: 'one two three four five six seven eight' }]);
    const controller = new AbortController();
    const reading = (async () => {
      for await (const batch of port.streamChat({ model: 'chat-model', messages: HI, signal: controller.signal })) {
        if (batch.text) controller.abort();
      }
    })();
    await assert.rejects(reading, (e: unknown) => !(e instanceof TransientModelError) && !(e instanceof PermanentModelError));
  });
});
