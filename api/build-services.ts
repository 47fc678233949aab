import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { AnalyticsRecorder, createAnalyticsStore } from '../core/analytics/index.js';
import { createAutomationStore } from '../core/automations/index.js';
import type { Config } from '../core/config.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { archiveJobRun, createJobEventLog, createJobStore, JobRetention, openJobWakeups } from '../core/jobs/index.js';
import { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { connectRedis } from '../core/redis.js';
import { temporalTarget, tlsOptions } from '../core/temporal/connection.js';
import { observedDocIndex, openDocIndex } from '../core/retrieval/index.js';
import { temporalClientInterceptors } from '../core/temporal/tracing.js';
import type { QuireMetrics } from '../core/telemetry/index.js';
import { createTenantStore } from '../core/tenants/index.js';
import { createThreadStore } from '../core/threads/index.js';
import { createWebhookStore } from '../core/webhooks/index.js';
import { configuredAnswering, createAnswerService, meteredAnswerer } from './assistant/index.js';
import type { ApiServices } from './services.js';

/**
 * Connects the API's clients. Temporal is connected lazily, so the API starts
 * (and /readyz says 503) while the cluster is still coming up.
 */
export async function buildApiServices(config: Config, logger: Logger, metrics: QuireMetrics): Promise<ApiServices> {
  const database = await openMigratedDatabase(config.database, { poolSize: config.databasePoolSize, observe: (operation, seconds) => metrics.db.observeQuery(operation, seconds) });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const tenants = createTenantStore(database);
  const target = temporalTarget(config);
  const tls = await tlsOptions(target);
  const connection = Connection.lazy({
    address: target.address,
    ...(tls ? { tls } : {}),
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    connectTimeout: '3s',
    // A request waits a few seconds for Temporal, not the default minute: clients get a prompt 503.
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3 }))],
  });
  const temporal = new Client({ connection, namespace: target.namespace, interceptors: temporalClientInterceptors() });
  const jobs = createJobStore(database);
  // Redis pub/sub wakes the event streams when the deployment has Redis; else one poller per process.
  const events = createJobEventLog(database, openJobWakeups(database, redis));
  const limiter = new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, logger, metrics: metrics.limits });
  const probes: ApiServices['probes'] = {
    temporal: async () => {
      await connection.ensureConnected();
      await connection.workflowService.getSystemInfo({});
    },
    database: () => database.ping(),
  };
  if (redis) probes.redis = async () => void (await redis.ping());
  const docIndex = observedDocIndex(openDocIndex(config, redis), metrics.retrieval);
  // Named after the engine, so a 503 says which one is down.
  probes[config.qdrant ? 'qdrant' : 'index'] = () => docIndex.ping();
  const analyticsStore = createAnalyticsStore(database);
  const webhooks = createWebhookStore(database);
  const analytics = new AnalyticsRecorder({ store: analyticsStore, logger, retentionDays: config.retention.analyticsDays });
  analytics.start();
  const threads = createThreadStore(database, { retentionDays: config.retention.threadDays });
  const answering = configuredAnswering(config);
  const answers = createAnswerService({
    docIndex,
    threads,
    recorder: analytics,
    answerer: meteredAnswerer(answering.answerer, metrics.assistant),
    rewriter: answering.rewriter,
    promptTokens: config.assistant.promptTokens,
    searchTimeoutMs: config.assistant.searchTimeoutMs,
    logger,
  });
  // Beside the analytics purge: every replica runs it, each step a bounded delete.
  const jobRetention = new JobRetention({
    database,
    jobs,
    deliveries: webhooks,
    logger,
    retentionDays: config.retention.jobDays,
    // Bounded like the API's own updates: without a worker the sweep moves on and tries again later.
    idleArchive: { days: config.retention.jobIdleArchiveDays, archive: (job) => temporal.withDeadline(Date.now() + 15_000, () => archiveJobRun({ temporal, config }, job)) },
  });
  jobRetention.start();
  return {
    config,
    logger,
    metrics,
    database,
    tenants,
    jobs,
    events,
    threads,
    analyticsStore,
    webhooks,
    automations: createAutomationStore(database),
    limiter,
    temporal,
    redis,
    probes,
    docIndex,
    analytics,
    answers,
    jobRetention,
  };
}
