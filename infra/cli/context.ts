import type { Redis } from 'ioredis';
import { createAnalyticsStore, type AnalyticsStore } from '../../core/analytics/index.js';
import { createAutomationStore, type AutomationStore } from '../../core/automations/index.js';
import type { Config } from '../../core/config.js';
import type { Database } from '../../core/db/index.js';
import type { TenantStore } from '../../core/tenants/index.js';
import { createWebhookStore, type WebhookStore } from '../../core/webhooks/index.js';

export interface CliContext {
  config: Config;
  /** The system of record, migrated. */
  database: Database;
  tenants: TenantStore;
  webhooks: WebhookStore;
  automations: AutomationStore;
  analytics: AnalyticsStore;
  /** The deployment's Redis (the rate limits an automation spends); undefined: this process's own counts. */
  redis?: Redis;
  out: NodeJS.WritableStream;
}

/** The stores a command may use, all over the one database. */
export function cliStores(database: Database): Pick<CliContext, 'webhooks' | 'automations' | 'analytics'> {
  return { webhooks: createWebhookStore(database), automations: createAutomationStore(database), analytics: createAnalyticsStore(database) };
}

/** A mistake in how the command was called: usage goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Command = (args: string[], ctx: CliContext) => Promise<number>;
