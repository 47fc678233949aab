export { createWebhookActivities, type WebhookActivities, type DeliveryInput } from './deliver-webhook.js';
