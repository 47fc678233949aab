/**
 * Webhooks end to end: the real API and worker, the Temporal dev server, real git repositories,
 * the scripted model standing in for the model provider, and a local node:http server standing
 * in for the customer's endpoint. The endpoint answers 503, then refuses connections while the
 * job runs to its end, then comes back; it must still get every event, in order, once.
 *
 * Retry pacing: QUIRE_WEBHOOK_INITIAL_INTERVAL_MS / QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS are set
 * low, so the outage spans many real retries without a minute of CI. Nothing here times anything.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createApp } from '../../../api/app.js';
import { type JobEvent, type JobView } from '../../../core/jobs/index.js';
import { applySeedFile } from '../../../core/tenants/seed-file.js';
import type { WebhookDelivery } from '../../../core/webhooks/index.js';
import { webhooks as webhooksCommand } from '../../../infra/cli/webhook-commands.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { call, pollJob } from './agent-api.js';

/** README's verification recipe, as a receiver would paste it. */
function verifyQuireSignature(secret: string, rawBody: string, header: string, toleranceSeconds = 300): boolean {
  const fields = Object.fromEntries(header.split(',').map((kv) => kv.split('=')));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(String(fields.v1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Received {
  deliveryId: string;
  event: string;
  body: JobEvent & { id: string };
  verified: boolean;
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('webhooks: signed, ordered, durable delivery (real worker, git, Temporal)', function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let services: Awaited<ReturnType<typeof testServices>>;
  let base: string;
  let admin: string;

  before(async () => {
    model = await startFakeModel([]);
    const repo = await createDocsRepo({ pages: 3, withNav: true });
    services = await testServices({
      taskQueue: `webhooks-${randomUUID()}`,
      env: {
        QUIRE_MODEL_BASE_URL: model.baseUrl,
        QUIRE_MODEL_API_KEY: 'sk-test-model',
        QUIRE_MODEL: 'test-model',
        QUIRE_WEBHOOK_INITIAL_INTERVAL_MS: '100',
        QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS: '1',
        QUIRE_WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
    ({ adminKey: admin } = await seedOrg(services, 'acme'));
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    base = (await serve(createApp(services))).url;
  });

  it('a receiver that fails, then is down while the job runs, gets every event in order once it is back, each signed', async () => {
    let mode: 'fail' | 'up' = 'fail';
    let failures = 0;
    const received: Received[] = [];
    let secret = '';
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        if (mode === 'fail') {
          failures += 1;
          res.writeHead(503, { Connection: 'close' }).end('down for maintenance');
          return;
        }
        received.push({
          deliveryId: String(req.headers['x-quire-delivery']),
          event: String(req.headers['x-quire-event']),
          body: JSON.parse(raw),
          verified: verifyQuireSignature(secret, raw, String(req.headers['x-quire-signature'])),
        });
        res.writeHead(204).end();
      });
    };
    let receiver = http.createServer(handler);
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const address = receiver.address();
    assert.ok(address && typeof address === 'object');
    const port = address.port;
    onSuiteEnd(async () => {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    });

    // Registered with the operator's command; the generated secret is printed once.
    const out = new PassThrough();
    let printed = '';
    out.on('data', (c: Buffer) => (printed += c.toString()));
    const code = await webhooksCommand(['add', 'docs', `http://127.0.0.1:${port}/hooks/quire`], { ...services, out });
    assert.equal(code, 0);
    secret = /^(whsec_\S+)$/m.exec(printed)?.[1] ?? '';
    assert.ok(secret, printed);

    model.script([
      { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'Install the widget 2', new_text: 'Install the gadget 2' } }] },
      { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'Renamed it.' } }] },
    ]);
    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', admin, { prompt: 'Say gadget on page 2' });
    assert.equal(created.status, 201);
    const jobId = created.body.id;

    await eventually('three 503 answers', async () => (failures >= 3 ? true : undefined));
    // Now the endpoint goes away altogether: connections are refused.
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    const job = await pollJob(base, admin, 'docs', jobId, (j) => j.status !== 'active', 60_000);
    assert.equal(job.status, 'completed');
    const deliveries = `${base}/v2/agent/docs/webhooks/deliveries`;
    await eventually('a refused attempt in the delivery log', async () => {
      const log = await call<{ deliveries: WebhookDelivery[] }>(deliveries, 'GET', admin);
      return log.body.deliveries.some((d) => d.status === 'failed' && /ECONNREFUSED/.test(d.lastError ?? '')) ? true : undefined;
    });
    const logged = await services.events.after(jobId, 0);
    assert.deepEqual(logged.map((e) => e.type), ['turn.started', 'tool.step', 'tool.step', 'turn.finished', 'pull_request.opened', 'job.completed']);
    assert.equal(received.length, 0, 'nothing was delivered while the endpoint was down');

    mode = 'up';
    receiver = http.createServer(handler);
    await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
    await eventually('every event at the receiver', async () => (received.length >= logged.length ? true : undefined));

    assert.deepEqual(received.map((r) => r.body.seq), logged.map((e) => e.seq), 'in order, each once');
    assert.deepEqual(received.map((r) => r.event), logged.map((e) => e.type));
    assert.equal(new Set(received.map((r) => r.deliveryId)).size, received.length, 'no delivery id twice');
    assert.ok(received.every((r) => r.verified), 'every signature verifies with the README recipe');
    assert.ok(received.every((r) => r.body.id === r.deliveryId && r.body.jobId === jobId));
    assert.ok(!verifyQuireSignature('whsec_wrong', JSON.stringify(received[0]?.body), 't=1,v1=00'), 'a wrong secret does not verify');

    const log = await eventually('every delivery logged as delivered', async () => {
      const reply = await call<{ deliveries: WebhookDelivery[] }>(deliveries, 'GET', admin);
      const mine = reply.body.deliveries.filter((d) => d.jobId === jobId);
      return mine.length === logged.length && mine.every((d) => d.status === 'delivered') ? mine : undefined;
    });
    const first = log.find((d) => d.seq === 1);
    assert.ok(first && first.attempts > 3, `the first event took several attempts: ${JSON.stringify(first)}`);
    assert.equal(first.statusCode, 204);
  });

  it('the seed file registers webhooks with a secret by variable name; the CLI lists them without secrets', async () => {
    const dir = path.dirname(services.config.dataDir);
    const file = path.join(services.config.dataDir, `seed-${randomUUID()}.yaml`);
    await fs.writeFile(
      file,
      [
        'organisations:',
        '  - id: seeded',
        '    projects:',
        '      - id: seeded-docs',
        `        repository: ${dir}`,
        '        webhooks:',
        '          - url: https://hooks.example.com/quire',
        '            secretEnv: QUIRE_HOOK_SECRET_TEST',
        '            events: [job.completed, job.failed]',
      ].join('\n'),
    );
    const store = services.webhooks;
    await applySeedFile(file, services.tenants, store);
    await applySeedFile(file, services.tenants, store);
    const hooks = await store.list('seeded-docs');
    assert.equal(hooks.length, 1, 're-applying the seed updates, never duplicates');
    assert.deepEqual([hooks[0]?.url, hooks[0]?.events, hooks[0]?.secret], ['https://hooks.example.com/quire', ['job.completed', 'job.failed'], { kind: 'env', name: 'QUIRE_HOOK_SECRET_TEST' }]);
    const out = new PassThrough();
    let printed = '';
    out.on('data', (c: Buffer) => (printed += c.toString()));
    await webhooksCommand(['list', 'seeded-docs'], { ...services, out });
    assert.match(printed, /https:\/\/hooks\.example\.com\/quire\tjob\.completed,job\.failed\tenv:QUIRE_HOOK_SECRET_TEST/);
    await fs.writeFile(file, 'organisations:\n  - id: bad\n    projects:\n      - id: p\n        repository: x\n        webhooks:\n          - url: ftp://x\n            secretEnv: lower\n');
    await assert.rejects(applySeedFile(file, services.tenants, store), /webhooks\.0\.url: must be an http\(s\) URL[\s\S]*webhooks\.0\.secretEnv: must be an environment variable name/);
  });
});
