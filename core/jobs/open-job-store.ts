import path from 'node:path';
import type { Redis } from 'ioredis';
import { FileJobStore } from './file-job-store.js';
import { RedisJobStore } from './redis-job-store.js';
import type { JobStore } from './job-store.js';

/** Redis when the deployment has it, else files under the data directory. */
export function openJobStore(dataDir: string, redis: Redis | undefined): JobStore {
  return redis ? new RedisJobStore(redis) : new FileJobStore(path.join(dataDir, 'jobs'));
}
