import type { Client } from '@temporalio/client';
import type { AutomationStore } from '../core/automations/index.js';
import type { Config } from '../core/config.js';
import type { Database } from '../core/db/index.js';
import type { Limiter } from '../core/limits/index.js';
import type { JobEventLog, JobStore } from '../core/jobs/index.js';
import type { WebhookStore } from '../core/webhooks/index.js';
import type { Logger } from '../core/logger.js';
import type { QuireMetrics } from '../core/telemetry/index.js';
import type { TenantStore } from '../core/tenants/index.js';
import type { Redis } from 'ioredis';
import type { WritableDocIndex } from '../core/retrieval/index.js';

/** Clients the activities receive from the worker; activities never read the environment. */
export interface ActivityServices {
  config: Config;
  logger: Logger;
  /** The system of record (SQLite file or PostgreSQL), migrated. */
  database: Database;
  /** Where turns, model tokens, pull requests, deliveries and indexed pages are counted. */
  metrics: QuireMetrics;
  tenants: TenantStore;
  redis: Redis | undefined;
  /** Reads a secret (a forge token) by the variable name a project names; filled by the worker entry. */
  secrets?: (name: string) => string | undefined;
  /** The docs index the indexing activities write (and the assistant reads); opened from `config` when absent. */
  docIndex?: WritableDocIndex;
  /** The job store (job records, message prompts). */
  jobs: JobStore;
  /** Automations start jobs like the API does: a Temporal client and the same rate limits. */
  temporal?: Client;
  limiter?: Limiter;
  automations: AutomationStore;
  /** The job event log (SSE feed, webhooks). */
  events: JobEventLog;
  /** Registered webhooks and their delivery log. */
  webhooks: WebhookStore;
}
