export * from './webhook.js';
export * from './signature.js';
export { MAX_DELIVERIES, type WebhookStore } from './webhook-store.js';
export { SqliteWebhookStore } from './sqlite-webhook-store.js';
export { RedisWebhookStore } from './redis-webhook-store.js';
export { openWebhookStore } from './open-webhook-store.js';
