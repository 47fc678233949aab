export * from './types.js';
export { kindOfSecret, ADMIN_PREFIX, ASSISTANT_PREFIX, TENANT_ID } from './keys.js';
export { SqliteTenantStore } from './sqlite-store.js';
export { RedisTenantStore, type RedisTenantStoreOptions } from './redis-store.js';
export { openTenantStore } from './open.js';
