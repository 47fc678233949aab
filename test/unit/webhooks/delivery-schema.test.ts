import assert from 'node:assert/strict';
import * as v from 'valibot';
import { DeliveryListSchema } from '../../../api/agent/schemas.js';
import type { WebhookDelivery } from '../../../core/webhooks/index.js';
import { parseDeliveryJson } from '../../../core/webhooks/webhook-schema.js';

const delivery: WebhookDelivery = {
  deliveryId: 'dlv_1',
  projectId: 'docs',
  webhookId: 'wh_1',
  url: 'https://example.com/hook',
  event: 'job.completed',
  jobId: 'job_aaaaaaaaaaaaaaaaaaaa',
  seq: 7,
  status: 'failed',
  statusCode: 502,
  attempts: 2,
  lastError: 'receiver answered 502',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('webhook delivery shape', () => {
  it('reads a stored delivery back as it was written; anything else is not one', () => {
    assert.deepEqual(parseDeliveryJson(JSON.stringify(delivery)), delivery);
    assert.deepEqual(parseDeliveryJson(JSON.stringify({ ...delivery, statusCode: null, lastError: null })), { ...delivery, statusCode: null, lastError: null });
    assert.equal(parseDeliveryJson(JSON.stringify({ ...delivery, status: 'lost' })), undefined);
    assert.equal(parseDeliveryJson('{'), undefined);
  });

  it('answers a delivery the API schema (the served document’s list) accepts as it is', () => {
    const list = { deliveries: [delivery, { ...delivery, status: 'pending' as const, statusCode: null, attempts: 0, lastError: null }] };
    const parsed = v.safeParse(DeliveryListSchema, list);
    assert.ok(parsed.success, JSON.stringify(parsed.issues));
    assert.deepEqual(parsed.output, list);
  });
});
