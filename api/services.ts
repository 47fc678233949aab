import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type Router from '@koa/router';
import type { AnalyticsRecorder, AnalyticsStore } from '../core/analytics/index.js';
import type { AutomationStore } from '../core/automations/index.js';
import type { Config } from '../core/config.js';
import type { Database } from '../core/db/index.js';
import type { JobEventLog, JobRetention, JobStore } from '../core/jobs/index.js';
import type { DocIndex } from '../core/retrieval/index.js';
import type { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import type { QuireMetrics } from '../core/telemetry/index.js';
import type { TenantStore } from '../core/tenants/index.js';
import type { AnswerService } from './assistant/answer-service.js';
import type { ThreadStore } from '../core/threads/index.js';
import type { WebhookStore } from '../core/webhooks/index.js';

/** What every route of the API may use; built once by the entry point (or a test). */
export interface ApiServices {
  config: Config;
  logger: Logger;
  /** The system of record (SQLite file or PostgreSQL), migrated. */
  database: Database;
  /** Where requests, answers and rejections are counted; served on the metrics listener. */
  metrics: QuireMetrics;
  tenants: TenantStore;
  /** Job records and prompts, and the jobs' event logs, on `database`. */
  jobs: JobStore;
  events: JobEventLog;
  /** Assistant conversations, in the database. */
  threads: ThreadStore;
  /** Recorded answers, searches, clicks, ratings and gap jobs, in the database. */
  analyticsStore: AnalyticsStore;
  /** Registered webhooks and their delivery log, in the database. */
  webhooks: WebhookStore;
  automations: AutomationStore;
  limiter: Limiter;
  temporal: Client;
  redis: Redis | undefined;
  /**
   * The document index, opened once for every route that reads it (an
   * embedded index keeps each domain loaded in memory).
   */
  docIndex: DocIndex;
  /** Where answers, searches and clicks are recorded (off the response path). */
  analytics: AnalyticsRecorder;
  /** The one answer path of the assistant routes, MCP `ask` and the OpenAI-compatible endpoint. */
  answers: AnswerService;
  /** Deletes jobs, their events and webhook deliveries past `QUIRE_JOB_RETENTION_DAYS`; started by the entry point. */
  jobRetention?: JobRetention;
  /** Named readiness probes for /readyz (Temporal, the stores, …). */
  probes: Record<string, () => Promise<void>>;
}

/** A feature of the API: a router built from the shared services. */
export type Feature = (services: ApiServices) => Router;
