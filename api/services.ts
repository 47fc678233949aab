import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type Router from '@koa/router';
import type { AnalyticsRecorder } from '../core/analytics/index.js';
import type { Config } from '../core/config.js';
import type { JobRetention } from '../core/jobs/index.js';
import type { DocIndex } from '../core/retrieval/index.js';
import type { Limiter } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import type { QuireMetrics } from '../core/telemetry/index.js';
import type { TenantStore } from '../core/tenants/index.js';

/** What every route of the API may use; built once by the entry point (or a test). */
export interface ApiServices {
  config: Config;
  logger: Logger;
  /** Where requests, answers and rejections are counted; served on the metrics listener. */
  metrics: QuireMetrics;
  tenants: TenantStore;
  limiter: Limiter;
  temporal: Client;
  redis: Redis | undefined;
  /**
   * The document index, opened once for every route that reads it (an
   * embedded index keeps each domain loaded in memory). Optional so a test
   * may build services without one; routes then open their own.
   */
  docIndex?: DocIndex;
  /**
   * Where answers, searches and clicks are recorded (off the response path).
   * Optional so a test may build services without one; the routes then share one opened on first use.
   */
  analytics?: AnalyticsRecorder;
  /** Deletes jobs, their events and webhook deliveries past `QUIRE_JOB_RETENTION_DAYS`; started by the entry point. */
  jobRetention?: JobRetention;
  /** Named readiness probes for /readyz (Temporal, the stores, …). */
  probes: Record<string, () => Promise<void>>;
}

/** A feature of the API: a router built from the shared services. */
export type Feature = (services: ApiServices) => Router;
