import assert from 'node:assert/strict';
import { createWebhookActivities } from '../../../activities/webhooks/deliver-webhook.js';
import { webhookDeliveryId } from '../../../core/contracts/index.js';
import { webhookId } from '../../../core/webhooks/index.js';
import { testServices } from '../../support/services.js';

describe('a webhook delivery given up on', () => {
  it("keeps its attempts and last status when the project's newer deliveries are many", async () => {
    const services = await testServices({ withTemporal: false });
    const url = 'https://hooks.example.com/quire';
    const id = webhookId('docs', url);
    const event = { jobId: 'job_1', seq: 1, type: 'job.completed' as const };
    const deliveryId = webhookDeliveryId(id, event);
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const base = { projectId: 'docs', webhookId: id, url, event: event.type, jobId: 'job_1', lastError: 'the receiver answered 503' };
    await services.webhooks.put({ id, projectId: 'docs', url, events: [], secret: { kind: 'stored', value: 'whsec_test' }, createdAt: at(0) });
    await services.webhooks.recordDelivery({ ...base, deliveryId, seq: 1, status: 'failed', statusCode: 503, attempts: 57, updatedAt: at(0) });
    // A busy project: 1,200 later deliveries of other events.
    for (let i = 0; i < 1200; i++) {
      await services.webhooks.recordDelivery({ ...base, deliveryId: `dlv_later_${i}`, seq: i + 2, status: 'delivered', statusCode: 200, attempts: 1, lastError: null, updatedAt: at(1000 + i) });
    }
    await createWebhookActivities(services).abandonWebhookDelivery({ projectId: 'docs', webhookId: id, event, reason: 'retries gave up after 72 hours' });
    const abandoned = await services.webhooks.delivery('docs', deliveryId);
    assert.deepEqual([abandoned?.status, abandoned?.attempts, abandoned?.statusCode, abandoned?.lastError], ['abandoned', 57, 503, 'retries gave up after 72 hours']);
    assert.equal(await services.webhooks.delivery('blog', deliveryId), undefined, "another project's id is none");
  });
});
