import type { Redis } from 'ioredis';
import { RedisAnalyticsStore } from './redis-analytics-store.js';
import { SqliteAnalyticsStore } from './sqlite-analytics-store.js';
import type { AnalyticsStore } from './types.js';

/** Redis when the deployment has it, else `analytics.db` under the data directory. */
export function openAnalyticsStore(dataDir: string, redis: Redis | undefined): AnalyticsStore {
  return redis ? new RedisAnalyticsStore(redis) : SqliteAnalyticsStore.inDataDir(dataDir);
}
