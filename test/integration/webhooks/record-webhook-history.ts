/**
 * Records the history of a webhook delivery run that continues as new while events keep coming
 * and its receiver fails, into test/fixtures/histories/webhook-delivery.json for the replay test:
 * a dev server suggests continue-as-new after 40 events, the receiver answers 503 until the
 * suggestion has reached the run during the head event's attempts, then 204. Run after a
 * deliberate change to the workflow's shape, with the workflows module to record (default: the
 * repository's):
 *   node --require tsx/cjs test/integration/webhooks/record-webhook-history.ts [workflows-module]
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../../../activities/index.js';
import { deliverEventSignal, WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../../../core/contracts/index.js';
import { webhookId } from '../../../core/webhooks/index.js';
import { createWorker } from '../../../worker/create-worker.js';
import { startTracing } from '../../../core/telemetry/index.js';
import { testServices } from '../../support/services.js';
import { onSuiteEnd, runScript } from '../../support/teardown.js';
import { earlyContinueAsNewEnv, REPO_ROOT } from '../../support/temporal.js';

export const WEBHOOK_HISTORY_FILE = path.join(REPO_ROOT, 'test', 'fixtures', 'histories', 'webhook-delivery.json');

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function record(workflowsPath: string): Promise<void> {
  const env = await earlyContinueAsNewEnv();
  let open = false;
  const receiver = http.createServer((req, res) => {
    req.resume();
    res.writeHead(open ? 204 : 503).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  onSuiteEnd(() => new Promise<void>((r) => receiver.close(() => r())));
  // A neutral address: the webhook's id is derived from it, and the id is all the history holds.
  const url = 'https://hooks.example.com/quire';
  const services = await testServices({ withTemporal: false, env: { QUIRE_ALLOW_PRIVATE_TARGETS: 'true' } });
  const id = webhookId('docs', url);
  await services.webhooks.put({ id, projectId: 'docs', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: [], secret: { kind: 'stored', value: 'whsec_record_history_01' }, createdAt: new Date().toISOString() });
  const taskQueue = 'record-webhook-history';
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: { info() {}, warn() {}, debug() {}, trace() {}, error: console.error, log() {} } });
  const worker = await createWorker({
    connection: env.nativeConnection, namespace: env.namespace ?? 'default', taskQueue, activities: createActivities(services),
    workflows: { code }, maxActivities: 4, shutdownGraceMs: 2000, tracing: startTracing('quire-record', {}),
  });
  const running = worker.run();
  onSuiteEnd(async () => {
    worker.shutdown();
    await running;
  });

  const input: WebhookDeliveryInput = { projectId: 'docs', webhookId: id, settings: { initialIntervalMs: 200, maxIntervalSeconds: 1, timeoutMs: 2000, giveUpHours: 1 }, queue: [], handled: [] };
  const workflowId = webhookDeliveryWorkflowId('docs', id);
  const firstRun = await signal(1);
  async function signal(seq: number): Promise<string> {
    const event = await services.events.append({ key: `e${seq}`, type: 'turn.started', time: new Date().toISOString(), jobId: 'job_1', projectId: 'docs', data: {} });
    const handle = await env.client.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
      workflowId, taskQueue, args: [input], signal: deliverEventSignal, signalArgs: [{ jobId: 'job_1', seq: event.seq, type: event.type }],
    });
    return handle.signaledRunId;
  }
  const first = env.client.workflow.getHandle(workflowId, firstRun);
  const suggested = async () => ((await first.fetchHistory()).events ?? []).some((e) => e.workflowTaskStartedEventAttributes?.suggestContinueAsNew);
  // Events arrive while the head is retried, until a workflow task of the run was told to continue as new.
  for (let seq = 2; !(await suggested()); seq++) {
    if (seq > 60) throw new Error('the server never suggested continue-as-new');
    await signal(seq);
    await pause(100);
  }
  // The code the history is recorded with decides what the suggestion does; afterwards the receiver accepts.
  await pause(1000);
  open = true;
  for (let i = 0; i < 600 && (await first.describe()).status.name === 'RUNNING'; i++) await pause(100);
  const history: unknown = JSON.parse(historyToJSON(await first.fetchHistory()));
  await fs.mkdir(path.dirname(WEBHOOK_HISTORY_FILE), { recursive: true });
  // The failures' stack traces name the checkout's folder; the fixture names a neutral one.
  const text = JSON.stringify(history, null, 2).split(REPO_ROOT).join('/srv/quire');
  await fs.writeFile(WEBHOOK_HISTORY_FILE, text + '\n');
  console.log(`recorded ${workflowId} (${(await first.describe()).status.name}) into ${path.relative(REPO_ROOT, WEBHOOK_HISTORY_FILE)}`);
}

if (require.main === module) {
  runScript(() => record(path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'workflows'))));
}
