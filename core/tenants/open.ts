import type { Redis } from 'ioredis';
import { RedisTenantStore, type RedisTenantStoreOptions } from './redis-store.js';
import { SqliteTenantStore } from './sqlite-store.js';
import type { TenantStore } from './types.js';

/** Redis when the deployment has it, else the database under the data directory. */
export function openTenantStore(dataDir: string, redis: Redis | undefined, options: RedisTenantStoreOptions = {}): TenantStore {
  return redis ? new RedisTenantStore(redis, options) : SqliteTenantStore.inDataDir(dataDir);
}
