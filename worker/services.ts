import type { ActivityServices } from '../activities/index.js';
import type { Config } from '../core/config.js';
import { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { connectRedis } from '../core/redis.js';
import type { QuireMetrics } from '../core/telemetry/index.js';
import { openTenantStore } from '../core/tenants/index.js';

/** The worker's clients for the activities, built once at start-up. */
export async function buildActivityServices(config: Config, logger: Logger, metrics: QuireMetrics, env: NodeJS.ProcessEnv): Promise<ActivityServices> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  return {
    config,
    logger,
    metrics,
    redis,
    tenants: openTenantStore(config.dataDir, redis),
    // The agent job limits an automation's firing spends; shared with the API through Redis.
    limiter: new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, logger, metrics: metrics.limits }),
    // Forge tokens are named per project by variable name; only the worker entry reads them.
    secrets: (name: string) => env[name] || undefined,
  };
}
