import type { Webhook, WebhookDelivery } from './webhook.js';

/** Deliveries a listing returns at most. */
export const MAX_DELIVERIES = 200;

/** The registered webhooks and their delivery log, kept beside the job store. */
export interface WebhookStore {
  /** Adds the webhook, or replaces the one with the same id (same project and URL). */
  put(hook: Webhook): Promise<Webhook>;
  get(projectId: string, id: string): Promise<Webhook | undefined>;
  /** Oldest first; every project's when `projectId` is undefined. */
  list(projectId?: string): Promise<Webhook[]>;
  /** True when there was one to remove. */
  remove(projectId: string, id: string): Promise<boolean>;
  /** Writes a delivery's state as its latest attempt left it, while its webhook exists (none is written otherwise). */
  recordDelivery(delivery: WebhookDelivery): Promise<void>;
  /** Newest first. */
  deliveries(projectId: string, limit: number): Promise<WebhookDelivery[]>;
  /** One delivery by its id, however many came after it. */
  delivery(projectId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** Deletes every delivery last attempted before `before` (ISO 8601), in short slices; returns how many. */
  purgeDeliveries(before: string): Promise<number>;
}
