import type { Redis } from 'ioredis';
import type { AutomationStore } from './automation-store.js';
import { RedisAutomationStore } from './redis-automation-store.js';
import { SqliteAutomationStore } from './sqlite-automation-store.js';

/** Redis when the deployment has it, else the database under the data directory. */
export function openAutomationStore(dataDir: string, redis: Redis | undefined): AutomationStore {
  return redis ? new RedisAutomationStore(redis) : SqliteAutomationStore.inDataDir(dataDir);
}
