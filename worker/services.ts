import type { ActivityServices } from '../activities/index.js';
import type { Config } from '../core/config.js';
import { createAutomationStore } from '../core/automations/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { connectRedis } from '../core/redis.js';
import { openTenantStore } from '../core/tenants/index.js';
import { createWebhookStore } from '../core/webhooks/index.js';

/** The worker's clients for the activities, built once at start-up. */
export async function buildActivityServices(config: Config, logger: Logger, env: NodeJS.ProcessEnv): Promise<ActivityServices> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const database = await openMigratedDatabase(config.database, { poolSize: config.databasePoolSize });
  return {
    config,
    logger,
    database,
    webhooks: createWebhookStore(database),
    automations: createAutomationStore(database),
    redis,
    tenants: openTenantStore(config.dataDir, redis),
    // The agent job limits an automation's firing spends; shared with the API through Redis.
    limiter: new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, logger }),
    // Forge tokens are named per project by variable name; only the worker entry reads them.
    secrets: (name: string) => env[name] || undefined,
  };
}
