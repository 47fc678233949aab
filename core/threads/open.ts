import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { SqliteThreadStore } from './sqlite-store.js';
import { RedisThreadStore } from './redis-store.js';
import type { ThreadStore } from './types.js';

/** Redis when the service has it, else the database in the data folder. */
export function openThreadStore(config: Pick<Config, 'dataDir' | 'retention'>, redis?: Redis): ThreadStore {
  const days = config.retention.threadDays;
  return redis ? new RedisThreadStore(redis, days) : new SqliteThreadStore(config.dataDir, days);
}
