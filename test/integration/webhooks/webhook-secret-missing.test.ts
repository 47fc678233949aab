import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createWebhookActivities } from '../../../activities/webhooks/deliver-webhook.js';
import { webhookId } from '../../../core/webhooks/index.js';
import { testServices } from '../../support/services.js';

/** The failed deliveries the worker's metrics counted so far. */
async function failedDeliveries(services: Awaited<ReturnType<typeof testServices>>): Promise<number> {
  const values = (await services.metrics.registry.getSingleMetric('quire_webhook_deliveries_total')!.get()).values;
  return values.find((v) => v.labels.outcome === 'failed')?.value ?? 0;
}

describe('a webhook whose signing secret variable is not set on the worker', () => {
  it('fails the attempt (retried), logs why in the delivery, and counts it as a failed delivery for the alerts', async () => {
    // No secrets handed to the platform: the webhook's variable is unset on this "worker".
    const services = await testServices({ withTemporal: false });
    const url = 'https://hooks.example.com/quire';
    const id = webhookId('docs', url);
    await services.webhooks.put({ id, projectId: 'docs', url, events: [], secret: { kind: 'env', name: 'QUIRE_TEST_HOOK_SECRET' }, createdAt: new Date().toISOString() });
    const event = await services.events.append({ key: 'turn:1:started', type: 'turn.started', time: new Date().toISOString(), jobId: 'job_1', projectId: 'docs', data: {} });
    const before = await failedDeliveries(services);
    const activities = createWebhookActivities(services);
    await assert.rejects(
      new MockActivityEnvironment().run(() => activities.deliverWebhookEvent({ projectId: 'docs', webhookId: id, event: { jobId: 'job_1', seq: event.seq, type: event.type } })),
      /the signing secret's variable QUIRE_TEST_HOOK_SECRET is not set on the worker/,
    );
    assert.equal(await failedDeliveries(services), before + 1);
    const [logged] = await services.webhooks.deliveries('docs', 10);
    assert.equal(logged?.status, 'failed');
    assert.match(logged?.lastError ?? '', /QUIRE_TEST_HOOK_SECRET is not set/);
  });
});
