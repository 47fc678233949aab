import type { Redis } from 'ioredis';
import type { JobEventLog } from './job-events.js';
import { RedisJobEventLog } from './redis-job-event-log.js';
import { SqliteJobEventLog } from './sqlite-job-event-log.js';

/** Beside the job store, chosen alike: Redis when the deployment has it, else the data directory. */
export function openJobEventLog(dataDir: string, redis: Redis | undefined): JobEventLog {
  return redis ? new RedisJobEventLog(redis) : SqliteJobEventLog.inDataDir(dataDir);
}
