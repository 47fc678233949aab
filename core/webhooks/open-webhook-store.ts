import type { Redis } from 'ioredis';
import { RedisWebhookStore } from './redis-webhook-store.js';
import { SqliteWebhookStore } from './sqlite-webhook-store.js';
import type { WebhookStore } from './webhook-store.js';

/** Chosen like the job store: Redis when the deployment has it, else the data directory. */
export function openWebhookStore(dataDir: string, redis: Redis | undefined): WebhookStore {
  return redis ? new RedisWebhookStore(redis) : SqliteWebhookStore.inDataDir(dataDir);
}
