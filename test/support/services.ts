import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { configuredAnswering, createAnswerService } from '../../api/assistant/index.js';
import { createApp } from '../../api/app.js';
import { apiServices } from '../../api/build-services.js';
import { createHttpServer } from '../../api/http-server.js';
import type { ApiServices } from '../../api/services.js';
import { loadConfig, type Config } from '../../core/config.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { openPlatform, type Platform } from '../../core/platform/index.js';
import type { ChunkEmbedding, DocIndex } from '../../core/retrieval/index.js';
import { createMetrics } from '../../core/telemetry/index.js';
import type { ThreadStore } from '../../core/threads/index.js';
import { onSuiteEnd } from './teardown.js';
import { temporalEnv } from './temporal.js';

export async function tempDir(prefix = 'quire-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  onSuiteEnd(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A parsed configuration over a fresh data directory, plus any variables the test sets. */
export async function testConfig(env: Record<string, string> = {}): Promise<Config> {
  const dataDir = await tempDir();
  // Keyword retrieval unless a test asks for an embedder: the default (local) needs the server `npm start` runs.
  const embedder = env.QUIRE_EMBEDDING_MODEL ? {} : { QUIRE_EMBEDDER: 'none' };
  // One model request per answer unless a test asks for the rewrite and the model's searches:
  // the tests that script a model reply by reply count on it (query-rewrite.test.ts turns both on).
  const answering = { QUIRE_ASSISTANT_QUERY_REWRITE: 'false', QUIRE_ASSISTANT_MAX_SEARCHES: '0' };
  return loadConfig({ QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...embedder, ...answering, ...env });
}

/**
 * A platform over `config`, as every process opens it (a registry of metrics of its own, as each
 * process owns one; secrets read from `secrets`), closed at suite end.
 */
export async function testPlatform(config: Config, opts: { secrets?: NodeJS.ProcessEnv; logger?: Logger } = {}): Promise<Platform> {
  const logger = opts.logger ?? createLogger('silent', 'test');
  const platform = await openPlatform(config, { logger, metrics: createMetrics({ orgLabel: config.metrics.orgLabel }), env: opts.secrets ?? {}, temporal: 'client' });
  onSuiteEnd(() => platform.close());
  return platform;
}

/**
 * The API's (and the activities') services on a platform over a fresh data directory: the suite's
 * Temporal dev server unless `withTemporal` is false (then a call to Temporal fails: it names an address nothing listens on), Redis when the
 * test's variables name one; `logger` to read what it logs. The analytics recorder runs, as in the API.
 */
export async function testServices(opts: { env?: Record<string, string>; taskQueue?: string; withTemporal?: boolean; logger?: Logger } = {}): Promise<ApiServices> {
  const config = await testConfig({
    // Without Temporal: an address nothing listens on, never the default one, where a developer's own `npm start` may run.
    TEMPORAL_ADDRESS: opts.withTemporal === false ? '127.0.0.1:1' : (await temporalEnv()).address,
    ...(opts.taskQueue ? { TEMPORAL_TASK_QUEUE: opts.taskQueue } : {}),
    ...opts.env,
  });
  return servicesOn(config, { ...(opts.env ? { secrets: opts.env } : {}), ...(opts.logger ? { logger: opts.logger } : {}) });
}

/** The API's services on a platform over `config`, as the API entry builds them: the analytics recorder runs. */
export async function servicesOn(config: Config, opts: Parameters<typeof testPlatform>[1] = {}): Promise<ApiServices> {
  const platform = await testPlatform(config, opts);
  platform.analytics.start();
  return apiServices(platform);
}

/**
 * The answer service as the API builds it, over these services' index and
 * recorder (a test that swaps either builds it again) and `threads`.
 */
export function answerServiceOf(services: Pick<ApiServices, 'config' | 'logger' | 'docIndex' | 'analytics' | 'completions' | 'threads' | 'metrics' | 'model'>, threads: ThreadStore = services.threads) {
  const { config, logger, docIndex, analytics } = services;
  const answering = configuredAnswering(services.model, config.assistant);
  return createAnswerService({
    docIndex,
    threads,
    completions: services.completions,
    recorder: analytics,
    answerer: answering.answerer,
    metrics: services.metrics.assistant,
    rewriter: answering.rewriter,
    promptTokens: config.assistant.promptTokens,
    searchTimeoutMs: config.assistant.searchTimeoutMs,
    logger,
  });
}

/** The services answering from `docIndex`: the index every route reads and the answer service over it. */
export function withDocIndex<T extends ApiServices>(services: T, docIndex: DocIndex, threads?: ThreadStore): T {
  const next = { ...services, docIndex };
  return { ...next, answers: answerServiceOf(next, threads) };
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves an app on a free loopback port (streams need a real socket), with the
 * API's own HTTP server: its deadlines (the defaults, or `limits`) and its answers to malformed requests.
 */
export async function serve(app: Koa, limits?: Config['http']): Promise<Served> {
  const server = createHttpServer(app, limits ?? loadConfig({}).http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  onSuiteEnd(close);
  return { url: `http://127.0.0.1:${port}`, close };
}

/** An organisation with one admin and one assistant key. */
export async function seedOrg(services: Pick<ApiServices, 'tenants'>, orgId = 'acme') {
  await services.tenants.addOrg(orgId);
  const admin = await services.tenants.createKey(orgId, 'admin');
  const assistant = await services.tenants.createKey(orgId, 'assistant');
  return { orgId, adminKey: admin.secret, assistantKey: assistant.secret, adminKeyId: admin.record.id };
}

export type SeededOrg = Awaited<ReturnType<typeof seedOrg>>;

/**
 * The whole API served over `testServices(opts)`, with two organisations, acme and globex, each
 * holding an admin and an assistant key: the world of the tests that check one tenant against another.
 */
export async function twoOrgApi(opts: Parameters<typeof testServices>[0] = {}) {
  const services = await testServices(opts);
  const { url } = await serve(createApp(services));
  return { services, url, acme: await seedOrg(services, 'acme'), globex: await seedOrg(services, 'globex') };
}

/** How a worker of this configuration embeds chunks: its platform's embedder behind the vector cache in its database. */
export async function chunkEmbeddingOf(config: Config): Promise<ChunkEmbedding | undefined> {
  const { embeddings } = await testPlatform(config);
  return embeddings.configured ? embeddings.chunks : undefined;
}
