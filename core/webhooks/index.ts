export * from './webhook.js';
export * from './signature.js';
export { DeliverySchema } from './webhook-schema.js';
export { MAX_DELIVERIES, type WebhookStore } from './webhook-store.js';
export { createWebhookStore } from './webhook-store-db.js';
export { newWebhook } from './register.js';
