import * as v from 'valibot';
import { JOB_EVENT_TYPES } from '../jobs/job-events.js';
import { DELIVERY_STATUSES, type Webhook, type WebhookDelivery } from './webhook.js';

/** One event's delivery to one webhook, as its last attempt left it: `WebhookDelivery` is its type; the API adds its wording. */
export const DeliverySchema = v.object({
  /** Stable across retries: the `X-Quire-Delivery` header. */
  deliveryId: v.string(),
  projectId: v.string(),
  webhookId: v.string(),
  url: v.string(),
  event: v.picklist(JOB_EVENT_TYPES),
  jobId: v.string(),
  seq: v.pipe(v.number(), v.integer()),
  /** `failed`: the last attempt failed and another follows; `abandoned`: retries gave up. */
  status: v.picklist(DELIVERY_STATUSES),
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  statusCode: v.nullable(v.pipe(v.number(), v.integer())),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastError: v.nullable(v.string()),
  /** Written by `Date.prototype.toISOString`. */
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
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
