/**
 * A real Prometheus (Debian's package) scrapes the API's and the worker's metrics listeners
 * while the test runs one agent job and asks the assistant; the series then hold exactly what
 * the test caused. The worker is the built entry point (`npm run build`), as production runs it,
 * so its scrape also carries the Temporal SDK's own `temporal_` metrics.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { EmbeddedDocIndex, observedDocIndex } from '../../../core/retrieval/index.js';
import { serveMetrics } from '../../../core/telemetry/index.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { freePort, startPrometheus, type Prometheus } from '../../support/prometheus.js';
import { seedOrg, serve, tempDir, testServices, withDocIndex } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';
import { call, pollJob } from '../agent-jobs/agent-api.js';
import { userMessage } from '../assistant/harness.js';
import { SITE } from '../assistant/site.js';

/** The assistant streams; the agent edits page 1, then finishes once it has seen a tool result. */
function modelReply(req: RecordedRequest): Reply {
  if (req.body.stream) return { text: 'Install it with the installer [1].', usage: { prompt: 30, completion: 7 } };
  if (!req.body.messages.some((m) => m.role === 'tool')) {
    return { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }], usage: { prompt: 100, completion: 10 } };
  }
  return { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget', summary: 'Says gadget.' } }], usage: { prompt: 120, completion: 5 } };
}

/** Waits until Prometheus has scraped a value that satisfies `ok` (scrapes are a second apart). */
async function eventually(prom: Prometheus, promql: string, ok: (values: number[]) => boolean): Promise<Array<{ labels: Record<string, string>; value: number }>> {
  const deadline = Date.now() + 30_000;
  let last: Array<{ labels: Record<string, string>; value: number }> = [];
  while (Date.now() < deadline) {
    last = await prom.query(promql);
    if (ok(last.map((s) => s.value))) return last;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${promql}: ${JSON.stringify(last)}`);
}

const exactly = (n: number) => (values: number[]) => values.length === 1 && values[0] === n;

describe('Prometheus scrapes the API and the worker', function () {
  this.timeout(180_000);

  it('holds the requests, answers, rejections, turns, tokens and pull requests the test caused, and the SDK worker metrics', async () => {
    const model = await startFakeModel((req) => modelReply(req));
    const repo = await createDocsRepo({ pages: 3, withNav: true });
    const taskQueue = `prom-${randomUUID()}`;
    const modelEnv = { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' };
    const services = await testServices({ taskQueue, env: modelEnv });
    // Two answers a month for the assistant key: the third question is refused by the key's limit.
    await services.tenants.addOrg('acme', { assistantPerKeyPerMonth: 2 });
    const { adminKey, assistantKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await services.tenants.putDomain({ id: 'site', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com/', includeHidden: false });
    const docIndex = new EmbeddedDocIndex(path.join(await tempDir('quire-index-'), 'index'));
    await docIndex.applyChanges('site', { upserts: SITE, removals: [] });
    // The API's routes and its answer service read the observed index, as the entry point builds them.
    const api = withDocIndex(services, observedDocIndex(docIndex, services.metrics.retrieval));

    const base = (await serve(createApp(api))).url;
    const apiMetrics = await serveMetrics({ host: '127.0.0.1', port: 0, portSetting: 'QUIRE_METRICS_PORT', registry: services.metrics.registry });
    const workerMetricsPort = await freePort();
    const worker = spawnWorker({
      ...modelEnv,
      TEMPORAL_ADDRESS: (await temporalEnv()).address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      QUIRE_DATA_DIR: services.config.dataDir,
      QUIRE_PUBLIC_URL: services.config.publicUrl,
      QUIRE_WORKER_METRICS_PORT: String(workerMetricsPort),
    });
    const prom = await startPrometheus({ api: new URL(apiMetrics.url).host, worker: `127.0.0.1:${workerMetricsPort}` });

    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Say gadget on page 1' });
    assert.equal(created.status, 201);
    const done = await pollJob(base, adminKey, 'docs', created.body.id, (j) => j.status !== 'active', 120_000).catch((err: unknown) => {
      throw new Error(`${String(err)}\nworker output:\n${worker.output()}`);
    });
    assert.equal(done.status, 'completed', JSON.stringify(done));

    const ask = () =>
      fetch(`${base}/discovery/v2/assistant/site/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${assistantKey}` },
        body: JSON.stringify({ fp: 'anonymous', messages: [userMessage('How do I install the widget?')] }),
      });
    for (const expected of [200, 200, 429]) {
      const res = await ask();
      await res.text();
      assert.equal(res.status, expected);
    }

    // API
    await eventually(prom, 'sum(quire_assistant_answers_total{job="api",outcome="answered"})', exactly(2));
    await eventually(prom, 'quire_assistant_first_token_seconds_count{job="api"}', exactly(2));
    await eventually(prom, 'quire_rate_limit_rejections_total{job="api",limit="key"}', exactly(1));
    await eventually(prom, 'quire_retrieval_duration_seconds_count{job="api"}', exactly(2));
    const creates = await eventually(prom, 'quire_http_request_duration_seconds_count{job="api",method="POST",status="201"}', exactly(1));
    assert.equal(creates[0]?.labels.route, '/v2/agent/:projectId/job', 'the route label is the template, not the path');
    await eventually(prom, 'quire_http_request_duration_seconds_count{job="api",route="/discovery/v2/assistant/:domain/message",status="429"}', exactly(1));
    await eventually(prom, 'quire_temporal_request_duration_seconds_count{job="api",operation="start",outcome="ok"}', exactly(1));
    // The assistant's own model calls are timed too: the first-token alert sends operators to them.
    await eventually(prom, 'quire_model_request_duration_seconds_count{job="api",operation="stream"}', exactly(2));
    // Worker
    await eventually(prom, 'quire_agent_turns_total{job="worker",outcome="finish"}', exactly(1));
    await eventually(prom, 'quire_agent_turn_duration_seconds_count{job="worker"}', exactly(1));
    await eventually(prom, 'quire_pull_requests_total{job="worker",action="created"}', exactly(1));
    await eventually(prom, 'quire_model_tokens_total{job="worker",model="test-model",direction="input"}', exactly(220));
    await eventually(prom, 'quire_model_tokens_total{job="worker",model="test-model",direction="output"}', exactly(15));
    await eventually(prom, 'quire_model_request_duration_seconds_count{job="worker",operation="chat"}', exactly(2));
    const sdk = await eventually(prom, 'count({job="worker",__name__=~"temporal_.+"})', (v) => v.length === 1 && (v[0] ?? 0) > 0);
    assert.ok(sdk.length === 1);
    // Its schedule-to-start histograms have bounds at the alerts' thresholds (2 s, 30 s), not only the SDK's coarse defaults.
    for (const le of ['2000', '30000']) await eventually(prom, `count(temporal_workflow_task_schedule_to_start_latency_bucket{job="worker",le="${le}"})`, (v) => (v[0] ?? 0) > 0);
    // No job id, thread id or key reaches a label.
    const labelled = await prom.query('{job=~"api|worker",__name__=~"quire_.+"}');
    const values = labelled.flatMap((s) => Object.values(s.labels)).join('\n');
    assert.ok(!values.includes(created.body.id) && !values.includes(assistantKey), 'no job id or key in a label');
    await apiMetrics.close();
  });
});
