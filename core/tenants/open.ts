import type { Redis } from 'ioredis';
import { FileTenantStore } from './file-store.js';
import { RedisTenantStore, type RedisTenantStoreOptions } from './redis-store.js';
import type { TenantStore } from './types.js';

/** Redis when the deployment has it, else the file under the data directory. */
export function openTenantStore(dataDir: string, redis: Redis | undefined, options: RedisTenantStoreOptions = {}): TenantStore {
  return redis ? new RedisTenantStore(redis, options) : FileTenantStore.inDataDir(dataDir);
}
