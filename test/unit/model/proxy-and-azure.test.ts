import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { modelFailure } from '../../../activities/model-failure.js';
import { ConfigError, loadConfig } from '../../../core/config.js';
import { createModelPort, PermanentModelError, RateLimitedModelError, TransientModelError, type ModelPort } from '../../../core/model/index.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { startForwardProxy } from '../../fakes/forward-proxy.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { testConfig } from '../../support/services.js';

const HI = [{ role: 'user' as const, content: 'hi' }];

function port(model: NonNullable<Awaited<ReturnType<typeof testConfig>>['model']>): ModelPort {
  const p = createModelPort(model);
  onSuiteEnd(() => p.close());
  return p;
}

/** One streamed answer, one tool-call completion and one embedding: the three uses of the port. */
async function useEveryCall(p: ModelPort, model: string, embeddingModel: string) {
  let text = '';
  for await (const batch of p.streamChat({ model, messages: HI, signal: new AbortController().signal })) text += batch.text;
  const completion = await p.chat({ model, messages: HI, tools: [] });
  const vectors = await p.embed({ model: embeddingModel, texts: ['a', 'b'] });
  return { text, reply: completion.choices[0]?.message.content, vectors: vectors.length };
}

describe('model port through a corporate forward proxy (a small CONNECT proxy in the test stands in for it)', () => {
  let model: FakeModelServer;
  before(async () => {
    model = await startFakeModel(() => ({ text: 'through the proxy' }));
  });
  const env = () => ({ QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-proxy', QUIRE_MODEL: 'chat' });

  it('sends streamed answers, tool calls and embeddings through HTTP_PROXY', async () => {
    const proxy = await startForwardProxy();
    const before = model.requests.length;
    const p = port((await testConfig({ ...env(), HTTP_PROXY: proxy.url })).model!);
    assert.deepEqual(await useEveryCall(p, 'chat', 'embed'), { text: 'through the proxy', reply: 'through the proxy', vectors: 2 });
    const sent = model.requests.slice(before);
    assert.equal(sent.length, 3);
    assert.ok(proxy.tunnels.length >= 1 && proxy.tunnels.every((t) => t === new URL(model.baseUrl).host), proxy.tunnels.join());
    for (const req of sent) assert.ok(proxy.upstreamPorts.has(req.remotePort ?? -1), `${req.path} came through the proxy`);
  });

  it('authenticates to the proxy with the credentials in its URL', async () => {
    const proxy = await startForwardProxy({ credentials: { user: 'quire', password: 'proxy-secret' } });
    const before = model.requests.length;
    const url = new URL(proxy.url);
    url.username = 'quire';
    url.password = 'proxy-secret';
    const p = port((await testConfig({ ...env(), http_proxy: url.toString() })).model!);
    await useEveryCall(p, 'chat', 'embed');
    assert.equal(proxy.refused, 0);
    for (const req of model.requests.slice(before)) assert.ok(proxy.upstreamPorts.has(req.remotePort ?? -1));
  });

  it('reaches hosts named in NO_PROXY directly', async () => {
    const proxy = await startForwardProxy();
    const before = model.requests.length;
    const p = port((await testConfig({ ...env(), HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'localhost, 127.0.0.1' })).model!);
    await useEveryCall(p, 'chat', 'embed');
    assert.equal(model.requests.length - before, 3);
    assert.deepEqual(proxy.tunnels, []);
  });

  it('a proxy that refuses the client is a transient failure, not a hang', async () => {
    const proxy = await startForwardProxy({ credentials: { user: 'quire', password: 'right' } });
    const p = port((await testConfig({ ...env(), HTTP_PROXY: proxy.url })).model!);
    await assert.rejects(p.chat({ model: 'chat', messages: HI, tools: [] }), (e: unknown) => e instanceof TransientModelError && e.status === undefined);
    assert.ok(proxy.refused >= 1);
  });
});

describe('model port against Azure OpenAI (the scripted model server follows its URL and api-key conventions)', () => {
  const azure = { apiVersion: '2024-10-21', apiKey: 'azure-key-1' };
  let model: FakeModelServer;
  before(async () => {
    model = await startFakeModel(() => ({ text: 'from a deployment' }), { azure });
  });
  const env = (over: Record<string, string> = {}) => ({
    QUIRE_MODEL_PROVIDER: 'azure',
    QUIRE_MODEL_BASE_URL: model.endpoint,
    QUIRE_MODEL_API_KEY: azure.apiKey,
    QUIRE_MODEL_API_VERSION: azure.apiVersion,
    QUIRE_MODEL: 'gpt-chat-deployment',
    QUIRE_EMBEDDING_MODEL: 'embed-deployment',
    ...over,
  });

  it('calls deployment URLs with api-version and the api-key header, never a bearer token', async () => {
    const before = model.requests.length;
    const config = await testConfig(env());
    assert.equal(config.embedding?.provider, 'azure');
    const p = port(config.model!);
    assert.deepEqual(await useEveryCall(p, config.model!.name, config.embedding!.model), { text: 'from a deployment', reply: 'from a deployment', vectors: 2 });
    const sent = model.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => r.path),
      ['/openai/deployments/gpt-chat-deployment/chat/completions', '/openai/deployments/gpt-chat-deployment/chat/completions', '/openai/deployments/embed-deployment/embeddings'],
    );
    for (const req of sent) {
      assert.equal(req.query.get('api-version'), azure.apiVersion);
      assert.equal(req.headers['api-key'], azure.apiKey);
      assert.equal(req.headers.authorization, undefined);
    }
  });

  it("classifies Azure's refusals: a wrong key or api-version is permanent", async () => {
    const wrongKey = port((await testConfig(env({ QUIRE_MODEL_API_KEY: 'wrong' }))).model!);
    await assert.rejects(wrongKey.chat({ model: 'gpt-chat-deployment', messages: HI, tools: [] }), (e: unknown) => e instanceof PermanentModelError && e.badCredentials);
    const wrongVersion = port((await testConfig(env({ QUIRE_MODEL_API_VERSION: '1999-01-01' }))).model!);
    await assert.rejects(wrongVersion.embed({ model: 'embed-deployment', texts: ['a'] }), (e: unknown) => e instanceof PermanentModelError && e.status === 400);
  });

  it('the configuration names what Azure needs, and refuses an api-version without it', () => {
    const base = { QUIRE_MODEL: 'm', QUIRE_MODEL_PROVIDER: 'azure' };
    assert.throws(() => loadConfig(base), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.deepEqual(e.problems, [
        'QUIRE_MODEL_BASE_URL: required when QUIRE_MODEL_PROVIDER is azure',
        'QUIRE_MODEL_API_KEY: required when QUIRE_MODEL_PROVIDER is azure',
        'QUIRE_MODEL_API_VERSION: required when QUIRE_MODEL_PROVIDER is azure',
      ]);
      return true;
    });
    assert.throws(() => loadConfig({ QUIRE_MODEL: 'm', QUIRE_MODEL_API_VERSION: '2024-10-21' }), /QUIRE_MODEL_API_VERSION: only used when QUIRE_MODEL_PROVIDER is azure/);
    assert.throws(() => loadConfig({ QUIRE_MODEL_PROVIDER: 'bedrock' }), /QUIRE_MODEL_PROVIDER: must be openai or azure/);
    assert.throws(() => loadConfig({ HTTPS_PROXY: 'proxy:3128' }), /HTTPS_PROXY: must be a proxy URL/);
  });
});

describe('model errors as Temporal failures (the one mapping the activities use)', () => {
  it('permanent errors are non-retryable, transient ones retryable with the provider delay', () => {
    const cases: Array<[Error, string, boolean, number | undefined]> = [
      [new PermanentModelError('bad request', 400), 'ModelRequestInvalid', true, undefined],
      [new PermanentModelError('bad key', 401), 'BadCredentials', true, undefined],
      [new RateLimitedModelError('slow down', 429, 7000), 'ModelUnavailable', false, 7000],
      // A provider whose quota is spent for the day does not hold the job for days: each wait is at most 5 minutes.
      [new RateLimitedModelError('quota spent', 429, 86_400_000), 'ModelUnavailable', false, 300_000],
      [new TransientModelError('overloaded', 503), 'ModelUnavailable', false, undefined],
      [new Error('socket hang up'), 'ModelUnavailable', false, undefined],
    ];
    for (const [err, type, nonRetryable, delay] of cases) {
      const failure = modelFailure(err);
      assert.ok(failure instanceof ApplicationFailure);
      assert.equal(failure.type, type, err.message);
      assert.equal(failure.nonRetryable, nonRetryable, err.message);
      assert.equal(failure.nextRetryDelay, delay, err.message);
    }
  });
});
