import type { Platform } from '../core/platform/index.js';

/**
 * What the activities receive from the worker's platform, every member required; activities never
 * read the environment and open nothing. Automations start jobs as the API does (the Temporal
 * client, the same rate limits); indexing writes the docs index the assistant reads.
 */
export type ActivityServices = Pick<
  Platform,
  | 'config'
  | 'logger'
  | 'metrics'
  | 'database'
  | 'tenants'
  | 'secrets'
  | 'docIndex'
  | 'embeddings'
  | 'model'
  | 'jobs'
  | 'events'
  | 'temporal'
  | 'limiter'
  | 'automations'
  | 'webhooks'
  | 'pulls'
  | 'forges'
>;
