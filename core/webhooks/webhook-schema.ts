import * as v from 'valibot';
import { JOB_EVENT_TYPES } from '../jobs/job-events.js';
import { DELIVERY_STATUSES, type Webhook, type WebhookDelivery } from './webhook.js';

const WebhookSchema = v.object({
  id: v.string(),
  projectId: v.string(),
  url: v.string(),
  events: v.array(v.picklist(JOB_EVENT_TYPES)),
  secret: v.variant('kind', [v.object({ kind: v.literal('stored'), value: v.string() }), v.object({ kind: v.literal('env'), name: v.string() })]),
  createdAt: v.string(),
});

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

/** Stored JSON to a webhook; a corrupt entry reads as missing. */
export const parseWebhookJson = (raw: string): Webhook | undefined => parseWith(WebhookSchema, raw);
export const parseDeliveryJson = (raw: string): WebhookDelivery | undefined => parseWith(DeliverySchema, raw);
