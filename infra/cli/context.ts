import type { Redis } from 'ioredis';
import type { AnalyticsStore } from '../../core/analytics/index.js';
import type { AutomationStore } from '../../core/automations/index.js';
import type { Config } from '../../core/config.js';
import type { Database } from '../../core/db/index.js';
import type { TenantStore } from '../../core/tenants/index.js';
import type { WebhookStore } from '../../core/webhooks/index.js';

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

/** A mistake in how the command was called: usage goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Command = (args: string[], ctx: CliContext) => Promise<number>;
