import { createAnalyticsStore, type AnalyticsStore } from '../analytics/index.js';
import { createAutomationStore, type AutomationStore } from '../automations/index.js';
import type { Config } from '../config.js';
import { rootReason } from '../errors.js';
import { describeTarget, openMigratedDatabase, type Database } from '../db/index.js';
import { createJobStore, type JobStore } from '../jobs/index.js';
import { slowStatementSpans, type QuireMetrics } from '../telemetry/index.js';
import type { Logger } from '../logger.js';
import { connectRedis } from '../redis.js';
import { cachedTenantStore, createTenantStore, openTenantCache, type TenantCache, type TenantStore } from '../tenants/index.js';
import { createWebhookStore, type WebhookStore } from '../webhooks/index.js';

/** The stores over the system of record that need no other engine. */
export interface DatabaseStores {
  tenants: TenantStore;
  jobs: JobStore;
  webhooks: WebhookStore;
  automations: AutomationStore;
  analyticsStore: AnalyticsStore;
}

/** What a command that needs only the system of record opens: the database and the stores over it. */
export interface DatabasePlatform extends DatabaseStores {
  config: Config;
  database: Database;
  close(): Promise<void>;
}

/**
 * The configured database, migrated, its queries timed into the process's metrics. A database that
 * cannot be opened stops the start with where it is (no credentials) and why.
 */
export async function openSystemOfRecord(config: Config, metrics: QuireMetrics): Promise<Database> {
  const traced = slowStatementSpans(config.database.dialect === 'postgres' ? 'postgresql' : 'sqlite', config.traceSlowQueryMs);
  try {
    return await openMigratedDatabase(config.database, {
      poolSize: config.databasePoolSize,
      observe: (operation, seconds, failed) => {
        metrics.db.observeQuery(operation, seconds);
        traced(operation, seconds, failed);
      },
    });
  } catch (err) {
    throw new Error(`cannot open the database at ${describeTarget(config.database)}: ${rootReason(err)}`, { cause: err });
  }
}

/** The stores over `database`; tenant reads go through `tenantCache`, which every tenant change clears. */
export function databaseStores(database: Database, tenantCache: TenantCache, logger: Logger): DatabaseStores {
  return {
    tenants: cachedTenantStore(createTenantStore(database), tenantCache, logger),
    jobs: createJobStore(database),
    webhooks: createWebhookStore(database),
    automations: createAutomationStore(database),
    analyticsStore: createAnalyticsStore(database),
  };
}

/**
 * The smaller opening of the composition root, for the CLI's commands that read and write only
 * the database: no Temporal, no model or index is touched. Redis, when configured, is opened only
 * to announce tenant changes (a revoked key), so API processes forget them at once. Redis out of
 * reach does not stop a command (revoking a key during a Redis outage must work): `unannounced`
 * is told why, and API processes see the change within their tenant cache's TTL, as without Redis
 * (those that cannot hear Redis either keep nothing meanwhile).
 */
export async function openDatabasePlatform(
  config: Config,
  options: { metrics: QuireMetrics; logger: Logger; unannounced: (reason: string) => void },
): Promise<DatabasePlatform> {
  const database = await openSystemOfRecord(config, options.metrics);
  try {
    const redis = config.redisUrl
      ? await connectRedis(config.redisUrl).catch((err: unknown) => {
          const reason = err instanceof Error ? err.message : String(err);
          options.unannounced(`${reason}; changes are not announced, API processes see them within QUIRE_TENANT_CACHE_TTL_MS (${config.tenantCacheTtlMs} ms)`);
          return undefined;
        })
      : undefined;
    // Nothing is kept (TTL 0): a command reads each record once.
    const tenantCache = openTenantCache({ ttlMs: 0, maxEntries: 1, redis, logger: options.logger });
    const close = async () => {
      await tenantCache.close();
      redis?.disconnect();
      await database.close();
    };
    return { config, database, ...databaseStores(database, tenantCache, options.logger), close };
  } catch (err) {
    await database.close();
    throw err;
  }
}
