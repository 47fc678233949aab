import { healthRouter } from '../../../api/health.js';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../api/app.js';
import { assistantRouter } from '../../../api/assistant/index.js';
import type { ApiServices, Feature } from '../../../api/services.js';
import { threadsRouter } from '../../../api/threads/index.js';
import { EmbeddedDocIndex, modelEmbedder, QueryEmbedder } from '../../../core/retrieval/index.js';
import type { Logger } from '../../../core/logger.js';
import { createModelPort } from '../../../core/model/index.js';
import { startFakeModel, type FakeModelServer, type Script } from '../../fakes/chat-completions-server.js';
import { SITE } from './site.js';
import { seedOrg, serve, tempDir, testServices, withDocIndex } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

export { SITE, docsPage } from './site.js';

export interface AssistantWorld {
  url: string;
  services: ApiServices;
  org: Awaited<ReturnType<typeof seedOrg>>;
  model: FakeModelServer | undefined;
  domainId: string;
  docIndex: EmbeddedDocIndex;
  post(version: 'v1' | 'v2', body: unknown, opts?: { key?: string; domain?: string; headers?: Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  close(): Promise<void>;
}

export interface WorldOptions {
  env?: Record<string, string>;
  /** A scripted model; without one the assistant runs in its extractive mode. */
  script?: Script;
  orgLimits?: Parameters<ApiServices['tenants']['addOrg']>[1];
  supportContact?: string;
  /** Where the services log (to capture it); silent by default. */
  logger?: Logger;
  /** Replaces some services after they are built (a recorder of the test's own, a subset of the probes). */
  patch?: (services: ApiServices) => Partial<ApiServices>;
  /** More features to serve beside the assistant (the widget, the search endpoints). */
  features?: Feature[];
  /** Searches embed their query with the fake model's embeddings endpoint, waiting this long for it. */
  queryEmbeddingTimeoutMs?: number;
}

/** A served API with the assistant over the real embedded index, a real tenant store and (optionally) the fake model. */
export async function assistantWorld(opts: WorldOptions = {}): Promise<AssistantWorld> {
  const model = opts.script !== undefined ? await startFakeModel(opts.script) : undefined;
  const env = { ...(model ? { QUIRE_MODEL: 'test-model', QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-secret' } : {}), ...opts.env };
  const built = await testServices({ env, withTemporal: false, ...(opts.logger ? { logger: opts.logger } : {}) });
  // This world runs no Temporal (the assistant never calls it), so its readiness does not wait on one.
  const { temporal: _noTemporal, ...probes } = built.probes;
  const patched: ApiServices = { ...built, probes, ...opts.patch?.(built) };
  if (opts.orgLimits) await patched.tenants.addOrg('acme', opts.orgLimits);
  const org = await seedOrg(patched);
  const domainId = 'docs';
  await patched.tenants.putDomain({
    id: domainId,
    orgId: org.orgId,
    source: '.',
    docsPath: '',
    baseUrl: 'https://docs.example.com/',
    includeHidden: false,
    ...(opts.supportContact ? { supportContact: opts.supportContact } : {}),
  });
  const embedding = model && opts.queryEmbeddingTimeoutMs
    ? { provider: 'openai' as const, baseUrl: model.baseUrl, apiKey: 'sk-test-secret', apiVersion: undefined, proxy: { http: undefined, https: undefined, noProxy: undefined }, model: 'test-embed', dimensions: undefined, marking: 'none' as const, queryTimeoutMs: opts.queryEmbeddingTimeoutMs }
    : undefined;
  // Its own port to the fake model, standing in for the platform's embeddings endpoint.
  const port = embedding ? createModelPort(embedding) : undefined;
  if (port) onSuiteEnd(() => port.close());
  const embedder = embedding && port ? modelEmbedder(embedding, port) : undefined;
  const docIndex = new EmbeddedDocIndex(path.join(await tempDir('quire-index-'), 'index'), new QueryEmbedder(embedder, opts.queryEmbeddingTimeoutMs ?? 0));
  await docIndex.applyChanges(domainId, { upserts: SITE, removals: [] });
  const { threads } = patched;
  const services = withDocIndex(patched, docIndex, threads);
  const app = createApp(services, [
    healthRouter,
    assistantRouter,
    threadsRouter,
    ...(opts.features ?? []),
  ]);
  const served = await serve(app, services.config.http);
  return {
    url: served.url,
    services,
    org,
    model,
    domainId,
    docIndex,
    post: (version, body, o = {}) =>
      fetch(`${served.url}/discovery/${version}/assistant/${o.domain ?? domainId}/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${o.key ?? org.assistantKey}`, ...o.headers },
        body: JSON.stringify(body),
        ...(o.signal ? { signal: o.signal } : {}),
      }),
    close: async () => {
      await served.close();
      await model?.close();
    },
  };
}

export const userMessage = (text: string, id = `m_${Math.random().toString(36).slice(2)}`) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
export const userMessageV1 = (text: string, id = `m_${Math.random().toString(36).slice(2)}`) => ({
  id,
  role: 'user',
  content: text,
  parts: [{ type: 'text', text }],
  createdAt: new Date().toISOString(),
});

export type { AddressInfo };
