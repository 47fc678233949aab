/**
 * Traces reach a real OTLP receiver: Jaeger (built by `infra/setup.sh --jaeger`), fed by the built
 * API and worker entry points (`npm run build`) configured only by the standard OTEL_* variables,
 * once over http/protobuf and once over http/json. One agent job's trace is read back from
 * Jaeger's query API: the API's request span (service quire-api), the workflow, an activity and
 * the model call with its GenAI attributes (service quire-worker), under one trace id, and no
 * prompt text anywhere in it.
 *
 *   npm run test:jaeger   (not in `npm test`: CI does not build Jaeger; CI's tracing test reads the
 *                          SDK's in-memory exporter, test/integration/telemetry/tracing.test.ts)
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { JobView } from '../../core/jobs/index.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../fakes/chat-completions-server.js';
import { createDocsRepo } from '../support/docs-repo.js';
import { startJaeger, type Jaeger, type JaegerSpan, type JaegerTrace } from '../support/jaeger.js';
import { freePort } from '../support/prometheus.js';
import { seedOrg, testServices } from '../support/services.js';
import { REPO_ROOT, temporalEnv } from '../support/temporal.js';
import { onSuiteEnd } from '../support/teardown.js';
import { spawnWorker } from '../support/worker-process.js';
import { pollJob } from '../integration/agent-jobs/agent-api.js';

const PROMPT_MARKER = 'prompt-marker-4be1d7';

/** The agent edits page 1, then finishes once it has seen a tool result; every reply reports token usage. */
function modelReply(req: RecordedRequest): Reply {
  if (!req.body.messages.some((m) => m.role === 'tool')) {
    return { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }], usage: { prompt: 100, completion: 10 } };
  }
  return { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget', summary: 'Says gadget.' } }], usage: { prompt: 120, completion: 5 } };
}

/** The built API entry point with `env`; resolves once /healthz answers. Stopped with SIGTERM (it flushes its spans). */
async function spawnApi(env: Record<string, string>): Promise<{ url: string; output: () => string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist', 'api', 'server.js')], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), QUIRE_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  onSuiteEnd(stop);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; !(await fetch(`${url}/healthz`).then((r) => r.ok, () => false)); await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the API did not start:\n${out}`);
  }
  return { url, output: () => out, stop };
}

const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;

/** Polls Jaeger until the trace holds a span for each of `names` (prefixes), or fails naming what it holds. */
async function traceWith(jaeger: Jaeger, traceId: string, names: string[]): Promise<JaegerTrace> {
  const deadline = Date.now() + 30_000;
  let last: JaegerTrace | undefined;
  for (;;) {
    last = await jaeger.trace(traceId);
    const held = last?.spans.map((s) => s.operationName) ?? [];
    if (names.every((n) => held.some((h) => h.startsWith(n)))) return last!;
    if (Date.now() > deadline) throw new Error(`trace ${traceId} holds only: ${held.join(', ')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('traces in a real Jaeger (npm run test:jaeger)', function () {
  this.timeout(300_000);
  let jaeger: Jaeger;

  before(async () => {
    jaeger = await startJaeger();
  });

  for (const protocol of ['http/protobuf', 'http/json']) {
    it(`one trace over ${protocol}: the API's request span, the workflow, an activity and the model call, no prompt text`, async () => {
      const model = await startFakeModel((req) => modelReply(req));
      const repo = await createDocsRepo({ pages: 3, withNav: true });
      const taskQueue = `jaeger-${randomUUID()}`;
      const modelEnv = { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-jaeger-model', QUIRE_MODEL: 'test-model' };
      const services = await testServices({ taskQueue, env: modelEnv });
      const { adminKey } = await seedOrg(services);
      await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
      // Only the standard variables; the service names are the defaults (quire-api, quire-worker). Batches leave every 200 ms.
      const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpUrl, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_BSP_SCHEDULE_DELAY: '200' };
      const shared = {
        ...modelEnv,
        ...otel,
        TEMPORAL_ADDRESS: (await temporalEnv()).address,
        TEMPORAL_TASK_QUEUE: taskQueue,
        QUIRE_DATA_DIR: services.config.dataDir,
        QUIRE_PUBLIC_URL: services.config.publicUrl,
        QUIRE_EMBEDDER: 'none',
      };
      const worker = spawnWorker(shared);
      const api = await spawnApi(shared);

      // The caller's own trace id, sent as a W3C traceparent: the API's request span continues it.
      const traceId = randomBytes(16).toString('hex');
      const res = await fetch(`${api.url}/v2/agent/docs/job`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
        body: JSON.stringify({ prompt: `Say gadget on page 1 ${PROMPT_MARKER}` }),
      });
      const created = (await res.json()) as JobView;
      assert.equal(res.status, 201, JSON.stringify(created));
      const done = await pollJob(api.url, adminKey, 'docs', created.id, (j) => j.status !== 'active', 120_000).catch((err: unknown) => {
        throw new Error(`${String(err)}\nworker:\n${worker.output()}\napi:\n${api.output()}`);
      });
      assert.equal(done.status, 'completed', JSON.stringify(done));

      const trace = await traceWith(jaeger, traceId, ['POST /v2/agent/:projectId/job', 'StartWorkflow:', 'RunWorkflow:', 'RunActivity:runAgentTurn', 'chat test-model']);
      const names = trace.spans.map((s) => s.operationName);
      console.log(`      ${protocol}: trace ${traceId}: ${[...new Set(names)].sort().join(', ')}`);
      assert.ok(trace.spans.every((s) => s.traceID === traceId), 'every span under the one trace id');
      const service = (s: JaegerSpan) => trace.processes[s.processID]?.serviceName;
      const request = trace.spans.find((s) => s.operationName === 'POST /v2/agent/:projectId/job')!;
      assert.equal(service(request), 'quire-api');
      assert.equal(tag(request, 'span.kind'), 'server');
      assert.equal(tag(request, 'http.response.status_code'), 201);
      assert.equal(service(trace.spans.find((s) => s.operationName.startsWith('StartWorkflow:'))!), 'quire-api');
      for (const name of ['RunWorkflow:', 'RunActivity:runAgentTurn']) {
        assert.equal(service(trace.spans.find((s) => s.operationName.startsWith(name))!), 'quire-worker', `${name} from the worker`);
      }
      const chats = trace.spans.filter((s) => s.operationName === 'chat test-model');
      assert.equal(chats.length, 2, 'one span per model call of the turn');
      for (const chat of chats) {
        assert.equal(service(chat), 'quire-worker');
        assert.equal(tag(chat, 'gen_ai.operation.name'), 'chat');
        assert.equal(tag(chat, 'gen_ai.request.model'), 'test-model');
        assert.equal(tag(chat, 'span.kind'), 'client');
      }
      assert.deepEqual(chats.map((c) => [tag(c, 'gen_ai.usage.input_tokens'), tag(c, 'gen_ai.usage.output_tokens')]).sort(), [[100, 10], [120, 5]]);
      // The model call sits under the turn's activity: a parent chain within the trace leads from one to the other.
      const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
      const ancestors = (s: JaegerSpan): string[] => {
        const parent = s.references.find((r) => r.refType === 'CHILD_OF');
        const up = parent && byId.get(parent.spanID);
        return up ? [up.operationName, ...ancestors(up)] : [];
      };
      assert.ok(ancestors(chats[0]!).some((n) => n.startsWith('RunActivity:runAgentTurn')), `chat under the activity: ${ancestors(chats[0]!).join(' < ')}`);
      assert.ok(ancestors(chats[0]!).includes('POST /v2/agent/:projectId/job'), 'and under the request');
      assert.ok(!JSON.stringify(trace).includes(PROMPT_MARKER), 'no prompt text in the trace');

      await Promise.all([api.stop(), (worker.child.kill('SIGTERM'), worker.exited)]);
      await model.close();
    });
  }
});
