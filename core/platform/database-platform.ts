import { createAnalyticsStore, type AnalyticsStore } from '../analytics/index.js';
import { createAutomationStore, type AutomationStore } from '../automations/index.js';
import type { Config } from '../config.js';
import { openMigratedDatabase, type Database } from '../db/index.js';
import { createJobStore, type JobStore } from '../jobs/index.js';
import type { QuireMetrics } from '../telemetry/index.js';
import { createTenantStore, type TenantStore } from '../tenants/index.js';
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

/** The configured database, migrated, its queries timed into the process's metrics. */
export function openSystemOfRecord(config: Config, metrics: QuireMetrics): Promise<Database> {
  return openMigratedDatabase(config.database, { poolSize: config.databasePoolSize, observe: (operation, seconds) => metrics.db.observeQuery(operation, seconds) });
}

export function databaseStores(database: Database): DatabaseStores {
  return {
    tenants: createTenantStore(database),
    jobs: createJobStore(database),
    webhooks: createWebhookStore(database),
    automations: createAutomationStore(database),
    analyticsStore: createAnalyticsStore(database),
  };
}

/**
 * The smaller opening of the composition root, for the CLI's commands that read and write only
 * the database: no Redis, no Temporal, no model or index is touched.
 */
export async function openDatabasePlatform(config: Config, options: { metrics: QuireMetrics }): Promise<DatabasePlatform> {
  const database = await openSystemOfRecord(config, options.metrics);
  return { config, database, ...databaseStores(database), close: () => database.close() };
}
