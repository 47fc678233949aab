import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { AnalyticsRecorder, openAnalyticsStore } from '../core/analytics/index.js';
import type { Config } from '../core/config.js';
import { JobRetention, openJobEventLog, openJobStore } from '../core/jobs/index.js';
import { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { connectRedis } from '../core/redis.js';
import { temporalTarget, tlsOptions } from '../core/temporal/connection.js';
import { observedDocIndex, openDocIndex } from '../core/retrieval/index.js';
import { temporalClientInterceptors } from '../core/temporal/tracing.js';
import type { QuireMetrics } from '../core/telemetry/index.js';
import { openTenantStore } from '../core/tenants/index.js';
import { openWebhookStore } from '../core/webhooks/index.js';
import type { ApiServices } from './services.js';

/**
 * Connects the API's clients. Temporal is connected lazily, so the API starts
 * (and /readyz says 503) while the cluster is still coming up.
 */
export async function buildApiServices(config: Config, logger: Logger, metrics: QuireMetrics): Promise<ApiServices> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  // Failing open means serving through a Redis outage: keys and domains then come from their last successful read.
  const tenants = openTenantStore(config.dataDir, redis, { lastKnownOnError: config.rateLimitOnStoreError === 'open', logger });
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
  const limiter = new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, logger, metrics: metrics.limits });
  const probes: ApiServices['probes'] = {
    temporal: async () => {
      await connection.ensureConnected();
      await connection.workflowService.getSystemInfo({});
    },
    tenants: () => tenants.ping(),
  };
  if (redis) probes.redis = async () => void (await redis.ping());
  const docIndex = observedDocIndex(openDocIndex(config, redis), metrics.retrieval);
  // Named after the engine, so a 503 says which one is down.
  probes[config.qdrant ? 'qdrant' : 'index'] = () => docIndex.ping();
  const analytics = new AnalyticsRecorder({ store: openAnalyticsStore(config.dataDir, redis), logger, retentionDays: config.retention.analyticsDays });
  analytics.start();
  // Beside the analytics purge: every replica runs it, each step a bounded delete.
  const jobRetention = new JobRetention({
    jobs: openJobStore(config.dataDir, redis),
    events: openJobEventLog(config.dataDir, redis),
    deliveries: openWebhookStore(config.dataDir, redis),
    logger,
    retentionDays: config.retention.jobDays,
  });
  jobRetention.start();
  return { config, logger, metrics, tenants, limiter, temporal, redis, probes, docIndex, analytics, jobRetention };
}
