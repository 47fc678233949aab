import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import type { ActivityServices } from '../../activities/index.js';
import { createHttpServer } from '../../api/http-server.js';
import { configuredAnswering, createAnswerService, meteredAnswerer } from '../../api/assistant/index.js';
import type { ApiServices } from '../../api/services.js';
import { AnalyticsRecorder, createAnalyticsStore } from '../../core/analytics/index.js';
import { createAutomationStore } from '../../core/automations/index.js';
import { loadConfig, type Config } from '../../core/config.js';
import { openMigratedDatabase, type Database } from '../../core/db/index.js';
import { createJobEventLog, createJobStore, openJobWakeups } from '../../core/jobs/index.js';
import { Limiter } from '../../core/limits/index.js';
import { createLogger } from '../../core/logger.js';
import { connectRedis } from '../../core/redis.js';
import { openChunkEmbedding, openDocIndex, type ChunkEmbedding, type DocIndex } from '../../core/retrieval/index.js';
import { createTenantStore } from '../../core/tenants/index.js';
import { createThreadStore, type ThreadStore } from '../../core/threads/index.js';
import { createWebhookStore } from '../../core/webhooks/index.js';
import { createMetrics } from '../../core/telemetry/index.js';
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

/** The stores of threads, analytics, webhooks and automations over the test's database, as the entry points build them. */
export function recordStores(config: Config, database: Database): Pick<ApiServices, 'threads' | 'analyticsStore' | 'webhooks' | 'automations'> {
  return {
    threads: createThreadStore(database, { retentionDays: config.retention.threadDays }),
    analyticsStore: createAnalyticsStore(database),
    webhooks: createWebhookStore(database),
    automations: createAutomationStore(database),
  };
}

/**
 * The API's services on real engines: the suite's Temporal dev server, a file
 * tenant store in a temp folder (or Redis when `redisUrl` is given).
 */
export async function testServices(
  opts: { env?: Record<string, string>; taskQueue?: string; withTemporal?: boolean } = {},
): Promise<ApiServices & ActivityServices> {
  const config = await testConfig({
    ...(opts.taskQueue ? { TEMPORAL_TASK_QUEUE: opts.taskQueue } : {}),
    ...opts.env,
  });
  const logger = createLogger('silent', 'test');
  const database = await openMigratedDatabase(config.database);
  onSuiteEnd(() => database.close());
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  if (redis) onSuiteEnd(async () => redis.disconnect());
  const tenants = createTenantStore(database);
  const wakeups = openJobWakeups(database, redis);
  onSuiteEnd(() => wakeups.close());
  // A registry of the test's own, as each process owns one.
  const metrics = createMetrics({ orgLabel: config.metrics.orgLabel });
  const limiter = new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, metrics: metrics.limits });
  const temporal = opts.withTemporal === false ? undefined : (await temporalEnv()).client;
  const docIndex = openDocIndex(config, redis);
  const stores = recordStores(config, database);
  const analytics = new AnalyticsRecorder({ store: stores.analyticsStore, logger, retentionDays: config.retention.analyticsDays });
  analytics.start();
  const services = {
    config,
    logger,
    metrics,
    database,
    jobs: createJobStore(database),
    events: createJobEventLog(database, wakeups),
    tenants,
    ...stores,
    limiter,
    redis,
    // Tests that never touch Temporal may skip it; a call would then fail loudly.
    temporal: temporal ?? (undefined as never),
    probes: { database: () => database.ping() },
    docIndex,
    analytics,
  };
  return { ...services, answers: answerServiceOf(services) };
}

/**
 * The answer service as the API builds it, over these services' index and
 * recorder (a test that swaps either builds it again) and `threads`.
 */
export function answerServiceOf(services: Pick<ApiServices, 'config' | 'logger' | 'docIndex' | 'analytics' | 'threads' | 'metrics'>, threads: ThreadStore = services.threads) {
  const { config, logger, docIndex, analytics } = services;
  const answering = configuredAnswering(config);
  return createAnswerService({
    docIndex,
    threads,
    recorder: analytics,
    answerer: meteredAnswerer(answering.answerer, services.metrics.assistant),
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

/** The migrated database a configuration names (a SQLite file in its data directory), closed at suite end. */
export async function databaseOf(config: Config): Promise<Database> {
  const database = await openMigratedDatabase(config.database);
  onSuiteEnd(() => database.close());
  return database;
}

/** How a worker of this configuration embeds chunks: its embedder behind the vector cache in its database. */
export async function chunkEmbeddingOf(config: Config): Promise<ChunkEmbedding | undefined> {
  return openChunkEmbedding(config, await databaseOf(config));
}
