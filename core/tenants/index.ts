export * from './types.js';
export { kindOfSecret, ADMIN_PREFIX, ASSISTANT_PREFIX, TENANT_ID } from './keys.js';
export { createTenantStore } from './tenant-store.js';
export * from './admin.js';
export { secretVariableName } from './secret-variable.js';
export { POLL_MINUTES, pollMinutesSchema } from './poll-minutes.js';
export { DOMAIN_LANGUAGES, domainLanguageSchema } from './domain-language.js';
export { cachedTenantStore } from './cached-tenant-store.js';
export { openTenantCache, TENANT_CHANGES_CHANNEL, type TenantCache } from './tenant-cache.js';
