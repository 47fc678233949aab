/**
 * A webhook whose receiver fails while events keep coming: each event is a signal in the delivery
 * workflow's history, and a receiver down for hours would pass Temporal's history limit (the run is
 * then terminated and its queue lost). On a dev server told to suggest continue-as-new early, the
 * run stops retrying the head event and continues as new with its whole queue; once the receiver
 * answers, every event arrives, in order.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliverEventSignal, WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../../../core/contracts/index.js';
import { webhookId } from '../../../core/webhooks/index.js';
import { testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { earlyContinueAsNewEnv, startWorker } from '../../support/temporal.js';

describe('webhook delivery across continue-as-new', function () {
  this.timeout(120_000);

  const EVENTS = 30;

  it('continues as new while the head event is retried, keeping the queue and the give-up time, and delivers every event in order', async () => {
    // Below the history the signals alone make: a loaded server folds them into few workflow tasks, and the
    // head event's retries add no events, so a threshold above their count could never be crossed.
    const env = await earlyContinueAsNewEnv(EVENTS - 10);
    // The receiver answers 503 until it is opened; it notes each delivery it accepts.
    let open = false;
    const accepted: string[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      if (!open) return void res.writeHead(503).end();
      accepted.push(String(req.headers['x-quire-delivery']));
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    onSuiteEnd(() => new Promise<void>((r) => receiver.close(() => r())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const services = await testServices({ withTemporal: false });
    const taskQueue = `webhook-can-${randomUUID()}`;
    const id = webhookId('docs', url);
    await services.webhooks.put({ id, projectId: 'docs', url, events: [], secret: { kind: 'stored', value: 'whsec_continue_as_new_01' }, createdAt: new Date().toISOString() });
    await startWorker(services, { env, taskQueue });

    const input: WebhookDeliveryInput = { projectId: 'docs', webhookId: id, settings: { initialIntervalMs: 200, maxIntervalSeconds: 1, timeoutMs: 2000, giveUpHours: 1 }, queue: [], handled: [] };
    const workflowId = webhookDeliveryWorkflowId('docs', id);
    let firstRun = '';
    for (let i = 1; i <= EVENTS; i++) {
      const event = await services.events.append({ key: `e${i}`, type: 'turn.started', time: new Date().toISOString(), jobId: 'job_1', projectId: 'docs', data: {} });
      const handle = await env.client.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
        workflowId,
        taskQueue,
        args: [input],
        signal: deliverEventSignal,
        signalArgs: [{ jobId: 'job_1', seq: event.seq, type: event.type }],
      });
      firstRun ||= handle.signaledRunId;
    }
    // Until the run has continued as new while the first event was still being retried.
    const latestRun = async () => (await env.client.workflow.getHandle(workflowId).describe()).runId;
    for (let i = 0; i < 600 && (await latestRun()) === firstRun; i++) await new Promise((r) => setTimeout(r, 100));
    assert.notEqual(await latestRun(), firstRun, 'the run continued as new');
    assert.deepEqual(accepted, [], 'nothing was delivered yet');
    const carried = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    const next = JSON.parse(Buffer.from(carried ?? new Uint8Array()).toString('utf8')) as WebhookDeliveryInput;
    assert.equal(next.queue[0]?.seq, 1, 'the head event is still at the head');
    assert.ok(next.headSince !== undefined, 'with the time its attempts began, so it is given up on when the first run would have');

    open = true;
    for (let i = 0; i < 600 && new Set(accepted).size < EVENTS; i++) await new Promise((r) => setTimeout(r, 100));
    const firsts = [...new Set(accepted)];
    assert.deepEqual(firsts, Array.from({ length: EVENTS }, (_, i) => `${id}.job_1.${i + 1}`), 'every event, in order');
  });
});
