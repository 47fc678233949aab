import type { ActivityServices } from '../activities/index.js';
import type { Config } from '../core/config.js';
import { createAutomationStore } from '../core/automations/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { createJobEventLog, createJobStore, openJobWakeups } from '../core/jobs/index.js';
import { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { connectRedis } from '../core/redis.js';
import { createTenantStore } from '../core/tenants/index.js';
import { createWebhookStore } from '../core/webhooks/index.js';
import type { QuireMetrics } from '../core/telemetry/index.js';

/** The worker's clients for the activities, built once at start-up. */
export async function buildActivityServices(config: Config, logger: Logger, metrics: QuireMetrics, env: NodeJS.ProcessEnv): Promise<ActivityServices> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const database = await openMigratedDatabase(config.database, { poolSize: config.databasePoolSize, observe: (operation, seconds) => metrics.db.observeQuery(operation, seconds) });
  // Each event the worker logs wakes the API's streams of the job (Redis pub/sub; else they poll).
  const wakeups = openJobWakeups(database, redis);
  return {
    config,
    logger,
    metrics,
    database,
    jobs: createJobStore(database),
    events: createJobEventLog(database, wakeups),
    webhooks: createWebhookStore(database),
    automations: createAutomationStore(database),
    redis,
    tenants: createTenantStore(database),
    // The agent job limits an automation's firing spends; shared with the API through Redis.
    limiter: new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, logger, metrics: metrics.limits }),
    // Forge tokens are named per project by variable name; only the worker entry reads them.
    secrets: (name: string) => env[name] || undefined,
  };
}
