import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { AnalyticsRecorder, type AnalyticsStore } from '../analytics/index.js';
import type { AutomationStore } from '../automations/index.js';
import { CompletionWriter, settledThreads } from '../completions/index.js';
import { isOwnSetting, type Config } from '../config.js';
import type { Database } from '../db/index.js';
import { PullStore } from '../forge/index.js';
import { forgeClients, type ForgeClients } from '../forge/forge-clients.js';
import { archiveJobRun, createJobEventLog, JobRetention, openJobWakeups, type JobEventLog, type JobStore } from '../jobs/index.js';
import { Limiter } from '../limits/index.js';
import type { Logger } from '../logger.js';
import { createModelPort, meteredModelPort } from '../model/index.js';
import { connectRedis } from '../redis.js';
import { announcedDrops, createVectorCache, modelEmbedder, observedDocIndex, openDocIndex, type WritableDocIndex } from '../retrieval/index.js';
import type { QuireMetrics, TemporalMetrics } from '../telemetry/index.js';
import { temporalTarget, tlsOptions } from '../temporal/connection.js';
import { temporalClientInterceptors } from '../temporal/client-interceptors.js';
import { openTenantCache, type TenantStore } from '../tenants/index.js';
import { createThreadStore, type SweepingThreadStore } from '../threads/index.js';
import type { WebhookStore } from '../webhooks/index.js';
import { databaseStores, openSystemOfRecord } from './database-platform.js';
import { redisClient, type ChatModel, type Embeddings, type RedisLink } from './engines.js';

/** PostgreSQL connections of the completion writer's thread: it writes one round at a time. */
const COMPLETION_WRITER_POOL = 2;
/** Tenant records kept per kind (keys, projects, domains, organisations) by a process's cache. */
const TENANT_CACHE_ENTRIES = 2_000;

/** Everything a process needs, opened once from the parsed configuration; `close` closes it all. */
export interface Platform {
  config: Config;
  logger: Logger;
  /** Where requests, answers, turns and queries are counted; served by the process's metrics listener. */
  metrics: QuireMetrics;
  /** The system of record (SQLite file or PostgreSQL), migrated. */
  database: Database;
  redis: RedisLink;
  /** Lazy in the API, the CLI and tests; over the worker's native connection in the worker. */
  temporal: Client;
  model: ChatModel;
  embeddings: Embeddings;
  /** The docs index (embedded snapshot or Qdrant), each search timed; one per process, as it keeps domains in memory. */
  docIndex: WritableDocIndex;
  /** Organisations, projects, domains and keys; in the API behind a cache of `QUIRE_TENANT_CACHE_TTL_MS`, forgotten on every change. */
  tenants: TenantStore;
  /** Job records and prompts, and the jobs' event logs (whose readers Redis or a poller wakes). */
  jobs: JobStore;
  events: JobEventLog;
  threads: SweepingThreadStore;
  /** Recorded answers, searches, clicks, ratings and gap jobs. */
  analyticsStore: AnalyticsStore;
  /** Writes searches, clicks and page views off the response path; started by the API. Its clock stamps answers. */
  analytics: AnalyticsRecorder;
  /**
   * Writes every answer's thread exchange and analytics record in a thread of its own, over its own
   * handle on the same database (started on the first answer); `close` drains it.
   */
  completions: CompletionWriter;
  webhooks: WebhookStore;
  automations: AutomationStore;
  /** The local forge's pull requests. */
  pulls: PullStore;
  /** GitHub's and GitLab's API clients, for the projects whose pull requests live there. */
  forges: ForgeClients;
  /** Rate limits: shared through Redis when configured, else this process's own counts. */
  limiter: Limiter;
  /** Deletes jobs, their events and webhook deliveries past `QUIRE_JOB_RETENTION_DAYS`; started by the API. */
  jobRetention: JobRetention;
  /** Reads a secret (a forge token, a webhook signing secret) by the variable name a project names. */
  secrets: (name: string) => string | undefined;
  /** Named readiness probes of the engines (for /readyz), named after the engine so a 503 says which. */
  probes: Record<string, () => Promise<void>>;
  /** Stops the background work, then closes every engine this platform opened, the database last. */
  close(): Promise<void>;
}

/** A worker's platform: the native connection its Temporal worker polls on is the one its client uses. */
export interface WorkerPlatform extends Platform {
  workerConnection: NativeConnection;
}

export interface PlatformOptions {
  logger: Logger;
  metrics: QuireMetrics;
  /** Where `secrets` reads from: the process's environment. */
  env: NodeJS.ProcessEnv;
}

/**
 * The one composition root: opens the database (migrated), Redis when configured, the Temporal
 * client, the model and embeddings ports, and the docs index, and builds every store over them.
 * Nothing else in Quire opens a connection. What fails to open closes what was already open.
 */
export async function openPlatform(config: Config, options: PlatformOptions & { temporal: 'worker' }): Promise<WorkerPlatform>;
export async function openPlatform(config: Config, options: PlatformOptions & { temporal: 'client' }): Promise<Platform>;
export async function openPlatform(config: Config, options: PlatformOptions & { temporal: 'client' | 'worker' }): Promise<Platform | WorkerPlatform> {
  const { logger, metrics } = options;
  // Closed in the reverse order of opening.
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closeOne of closers.splice(0).reverse()) await closeOne().catch((err: unknown) => logger.warn({ err }, 'closing an engine failed'));
  };
  try {
    const database = await openSystemOfRecord(config, metrics);
    closers.push(() => database.close());
    // After the migrations: its thread opens its own handle on the migrated database when the first answer comes.
    const completions = new CompletionWriter({
      database: config.database,
      poolSize: COMPLETION_WRITER_POOL,
      threadRetentionDays: config.retention.threadDays,
      logger,
      observe: (operation, seconds) => metrics.db.observeQuery(operation, seconds),
    });
    // Closed before the database: what was answered is written first.
    closers.push(() => completions.close());
    const redis: RedisLink = config.redisUrl ? { configured: true, client: await connectRedis(config.redisUrl) } : { configured: false };
    if (redis.configured) closers.push(async () => redis.client.disconnect());
    const temporal = await openTemporal(config, options.temporal, metrics.temporal);
    closers.push(() => temporal.close());
    // Metered here, once, for every caller: the agent's turns, the assistant's answers and rewrites, the embeddings.
    const model: ChatModel = config.model ? { configured: true, settings: config.model, port: meteredModelPort(createModelPort(config.model), metrics.model) } : { configured: false };
    if (model.configured) closers.push(() => model.port.close());
    const embeddings = openEmbeddings(config, database, metrics);
    if (embeddings.configured) closers.push(() => embeddings.port.close());
    const observedIndex = observedDocIndex(openDocIndex(config, embeddings.configured ? embeddings.embedder : undefined), metrics.retrieval);
    closers.push(() => observedIndex.close());
    // Redis pub/sub wakes the event streams when the deployment has Redis; else one poller per process.
    const wakeups = openJobWakeups(database, redisClient(redis));
    closers.push(() => wakeups.close());

    // The API's hot paths look up a key, a project or domain and an organisation per request: kept
    // briefly, forgotten on every change (in every process, through Redis when configured). The
    // worker's activities are not latency-bound and read the database each time.
    const tenantCache = openTenantCache({
      ttlMs: options.temporal === 'worker' ? 0 : config.tenantCacheTtlMs,
      maxEntries: TENANT_CACHE_ENTRIES,
      redis: redisClient(redis),
      logger,
      // A domain deleted elsewhere: its index leaves this process's memory too (the worker's as well).
      onIndexDropped: (domainId) => observedIndex.forgetDomain(domainId),
    });
    closers.push(() => tenantCache.close());
    const docIndex = announcedDrops(observedIndex, (domainId) => tenantCache.indexDropped(domainId));

    const stores = databaseStores(database, tenantCache, logger);
    const { jobs, webhooks, analyticsStore } = stores;
    const analytics = new AnalyticsRecorder({ store: analyticsStore, logger, retentionDays: config.retention.analyticsDays });
    // What is still queued is written before the database goes.
    closers.push(() => analytics.stop());
    const client = temporal.client;
    const events = createJobEventLog(database, wakeups);
    const threads = createThreadStore(database, { retentionDays: config.retention.threadDays });
    const jobRetention = new JobRetention({
      database,
      jobs,
      deliveries: webhooks,
      threads,
      logger,
      retentionDays: config.retention.jobDays,
      // Bounded like the API's own updates: without a worker the sweep moves on and tries again later.
      idleArchive: { days: config.retention.jobIdleArchiveDays, archive: (job) => client.withDeadline(Date.now() + 15_000, () => archiveJobRun({ temporal: client, config }, job)) },
    });
    closers.push(() => jobRetention.stop());

    const probes: Platform['probes'] = {
      database: () => database.ping(),
      temporal: temporal.probe,
      // Named after the engine, so a 503 says which one is down.
      [config.qdrant ? 'qdrant' : 'index']: () => docIndex.ping(),
    };
    if (redis.configured) probes.redis = async () => void (await redis.client.ping());

    const platform: Platform = {
      config,
      logger,
      metrics,
      database,
      redis,
      temporal: temporal.client,
      model,
      embeddings,
      docIndex,
      ...stores,
      events,
      // Read once this process's answers to the thread are committed; written by the completion writer.
      threads: settledThreads(threads, completions),
      analytics,
      completions,
      pulls: new PullStore(database),
      forges: forgeClients(config),
      limiter: new Limiter({ redis: redisClient(redis), onStoreError: config.rateLimitOnStoreError, logger, metrics: metrics.limits }),
      jobRetention,
      // A project's or webhook's variable, never one of Quire's own settings (its database URL, its keys).
      secrets: (name) => (isOwnSetting(name) ? undefined : options.env[name] || undefined),
      probes,
      close,
    };
    return temporal.worker ? { ...platform, workerConnection: temporal.worker } : platform;
  } catch (err) {
    await close();
    throw err;
  }
}

interface OpenedTemporal {
  client: Client;
  /** The native connection, in a worker. */
  worker: NativeConnection | undefined;
  probe(): Promise<void>;
  close(): Promise<void>;
}

async function openTemporal(config: Config, mode: 'client' | 'worker', metrics: TemporalMetrics): Promise<OpenedTemporal> {
  const target = temporalTarget(config);
  const tls = await tlsOptions(target);
  const common = { address: target.address, ...(tls ? { tls } : {}), ...(target.apiKey ? { apiKey: target.apiKey } : {}) };
  if (mode === 'worker') {
    // Loaded only here: the worker package brings the SDK's native core, which no other process needs.
    const { NativeConnection } = await import('@temporalio/worker');
    const connection = await NativeConnection.connect(common).catch((err: unknown) => {
      throw new Error(`cannot reach Temporal at ${target.address}: ${(err as Error).message}`, { cause: err });
    });
    // Automations start agent jobs from an activity: a client over the worker's own connection.
    const client = new Client({ connection, namespace: target.namespace, interceptors: temporalClientInterceptors(metrics) });
    return {
      client,
      worker: connection,
      // The namespace, not only the server: a namespace that does not exist refuses every start.
      probe: async () => void (await connection.workflowService.describeNamespace({ namespace: target.namespace })),
      close: () => connection.close(),
    };
  }
  const connection = Connection.lazy({
    ...common,
    connectTimeout: '3s',
    // A request waits a few seconds for Temporal, not the default minute: clients get a prompt 503.
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3 }))],
  });
  return {
    client: new Client({ connection, namespace: target.namespace, interceptors: temporalClientInterceptors(metrics) }),
    worker: undefined,
    probe: async () => {
      await connection.ensureConnected();
      await connection.workflowService.describeNamespace({ namespace: target.namespace });
    },
    close: () => connection.close(),
  };
}

/** The embeddings port, when configured, and what ranks queries and embeds chunks through it. */
function openEmbeddings(config: Config, database: Database, metrics: QuireMetrics): Embeddings {
  if (!config.embedding) return { configured: false };
  const port = meteredModelPort(createModelPort(config.embedding), metrics.model);
  const embedder = modelEmbedder(config.embedding, port);
  // Equal texts embed once: the vector cache in the database keeps what was paid for.
  const chunks = { embedder, cache: createVectorCache(database), batchSize: config.indexing.embeddingBatchSize };
  return { configured: true, port, embedder, chunks };
}
