import * as v from 'valibot';
import { JOB_EVENT_TYPES } from '../jobs/job-events.js';
import { DELIVERY_STATUSES, type Webhook, type WebhookDelivery } from './webhook.js';

const DeliverySchema = v.object({
  deliveryId: v.string(),
  projectId: v.string(),
  webhookId: v.string(),
  url: v.string(),
  event: v.picklist(JOB_EVENT_TYPES),
  jobId: v.string(),
  seq: v.number(),
  status: v.picklist(DELIVERY_STATUSES),
  statusCode: v.nullable(v.number()),
  attempts: v.number(),
  lastError: v.nullable(v.string()),
  updatedAt: v.string(),
});

function parseWith<T>(schema: v.GenericSchema<unknown, T>, raw: string): T | undefined {
  try {
    const parsed = v.safeParse(schema, JSON.parse(raw));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** A webhook's stored event filter; undefined when it is not one. */
export const parseWebhookEvents = (raw: string): Webhook['events'] | undefined => parseWith(v.array(v.picklist(JOB_EVENT_TYPES)), raw);
export const parseDeliveryJson = (raw: string): WebhookDelivery | undefined => parseWith(DeliverySchema, raw);
