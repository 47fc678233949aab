/**
 * Webhook deliveries through the operator's egress proxy. The delivery activity runs in Temporal's
 * mock activity environment against the real stores; a node:http server stands in for the customer's
 * endpoint and the forward proxy fake (a real HTTP proxy that counts what it relays) for the corporate
 * proxy. The end-to-end path (workflow, retries, ordering) is covered by webhooks.test.ts.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createWebhookActivities } from '../../../activities/webhooks/index.js';
import { webhookId, type WebhookDelivery } from '../../../core/webhooks/index.js';
import { startForwardProxy, type ForwardProxy } from '../../fakes/forward-proxy.js';
import { testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const SECRET = 'whsec_proxy_test';

interface Arrival {
  path: string;
  remotePort: number | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The customer's endpoint: 204 for /hooks, a redirect for /moved. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      arrivals.push({ path: req.url ?? '', remotePort: req.socket.remotePort, headers: req.headers, body });
      if (req.url === '/moved') res.writeHead(302, { Location: '/hooks' }).end();
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onSuiteEnd(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

/** A worker configured with `env`, one webhook at `url` and one logged event; delivers it and returns the delivery log. */
async function deliverOnce(env: Record<string, string>, url: string) {
  const services = await testServices({ withTemporal: false, env: { QUIRE_WEBHOOK_TIMEOUT_MS: '5000', ...env } });
  const store = services.webhooks;
  const hook = await store.put({ id: webhookId('docs', url), projectId: 'docs', url, events: [], secret: { kind: 'stored', value: SECRET }, createdAt: new Date().toISOString() });
  const jobId = `job-${randomUUID()}`;
  const event = await services.events.append({
    key: 'completed',
    type: 'job.completed',
    time: new Date().toISOString(),
    jobId,
    projectId: 'docs',
    data: {},
  });
  const activities = createWebhookActivities(services);
  // The failed delivery is the expected outcome in one test: the SDK's warning about it is noise here.
  const outcome = await new MockActivityEnvironment({}, { logger: new DefaultLogger('ERROR') })
    .run(activities.deliverWebhookEvent, { projectId: 'docs', webhookId: hook.id, event: { jobId, seq: event.seq, type: event.type } })
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  const log: WebhookDelivery[] = await store.deliveries('docs', 10);
  return { outcome, log, deliveryId: `${hook.id}.${jobId}.${event.seq}` };
}

function signatureVerifies(arrival: Arrival): boolean {
  const fields = Object.fromEntries(String(arrival.headers['x-quire-signature']).split(',').map((kv) => kv.split('=')));
  return fields.v1 === createHmac('sha256', SECRET).update(`${fields.t}.${arrival.body}`).digest('hex');
}

describe('webhook deliveries through the forward proxy (HTTP_PROXY / NO_PROXY)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let proxy: ForwardProxy;
  beforeEach(async () => {
    receiver = await startReceiver();
    proxy = await startForwardProxy();
  });

  it('a worker with HTTP_PROXY set delivers through the proxy, signed, and logs delivered', async () => {
    const { outcome, log, deliveryId } = await deliverOnce({ HTTP_PROXY: proxy.url }, `${receiver.url}/hooks`);
    assert.equal(outcome, undefined, String(outcome));
    assert.equal(receiver.arrivals.length, 1);
    const [arrival] = receiver.arrivals;
    assert.ok(arrival);
    assert.deepEqual(proxy.tunnels, [new URL(receiver.url).host], 'the proxy relayed the delivery');
    assert.ok(proxy.upstreamPorts.has(arrival.remotePort ?? -1), 'the receiver was reached from the proxy');
    assert.equal(arrival.headers['x-quire-delivery'], deliveryId);
    assert.equal(arrival.headers['x-quire-event'], 'job.completed');
    assert.equal(arrival.headers['content-type'], 'application/json');
    assert.ok(signatureVerifies(arrival));
    assert.deepEqual(log.map((d) => [d.deliveryId, d.status, d.statusCode, d.lastError]), [[deliveryId, 'delivered', 204, null]]);
  });

  it('a receiver named in NO_PROXY is reached directly', async () => {
    const { outcome, log } = await deliverOnce({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' }, `${receiver.url}/hooks`);
    assert.equal(outcome, undefined, String(outcome));
    assert.equal(receiver.arrivals.length, 1);
    assert.deepEqual(proxy.tunnels, []);
    assert.ok(!proxy.upstreamPorts.has(receiver.arrivals[0]?.remotePort ?? -1));
    assert.deepEqual(log.map((d) => [d.status, d.statusCode]), [['delivered', 204]]);
  });

  it('through the proxy a 3xx is still a failed delivery, never followed', async () => {
    const { outcome, log } = await deliverOnce({ HTTP_PROXY: proxy.url }, `${receiver.url}/moved`);
    assert.ok(outcome instanceof Error && /the receiver answered 302/.test(outcome.message), String(outcome));
    assert.deepEqual(receiver.arrivals.map((a) => a.path), ['/moved'], 'the redirect was not followed');
    assert.equal(proxy.tunnels.length, 1);
    assert.deepEqual(log.map((d) => [d.status, d.statusCode, d.lastError]), [['failed', 302, 'the receiver answered 302']]);
  });
});
