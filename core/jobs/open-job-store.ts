import type { Redis } from 'ioredis';
import { RedisJobStore } from './redis-job-store.js';
import { SqliteJobStore } from './sqlite-job-store.js';
import type { JobStore } from './job-store.js';

/** Redis when the deployment has it, else the database under the data directory. */
export function openJobStore(dataDir: string, redis: Redis | undefined): JobStore {
  return redis ? new RedisJobStore(redis) : SqliteJobStore.inDataDir(dataDir);
}
