/**
 * An operator points Quire at a namespace of their own cluster that has never seen it: no custom
 * search attributes. Temporal refuses every workflow start there, which the API answers 502 with a
 * code (not 500); the worker (the built entry point, as production runs it) adds the attributes
 * when it starts, and the same create then succeeds. Runs on a fresh namespace of the suite's
 * dev server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { msToTs } from '@temporalio/common/lib/time';
import { SEARCH_ATTRIBUTES } from '../../../core/contracts/search-attributes.js';
import type { JobView } from '../../../core/jobs/index.js';
import { registerSearchAttributes } from '../../../core/temporal/search-attributes.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';
import { call } from './agent-api.js';

/** How many workflow calls of `operation` the API's client counted in `quire_temporal_request_duration_seconds`, by outcome. */
async function temporalCalls(services: ApiServices, operation: string, outcome: 'ok' | 'error'): Promise<number> {
  const metric = (await services.metrics.registry.getSingleMetric('quire_temporal_request_duration_seconds')!.get()) as { values: Array<{ metricName?: string; labels: Record<string, unknown>; value: number }> };
  const count = metric.values.find((v) => v.metricName === 'quire_temporal_request_duration_seconds_count' && v.labels.operation === operation && v.labels.outcome === outcome);
  return count?.value ?? 0;
}

describe('a Temporal namespace not ready for Quire', function () {
  this.timeout(120_000);

  it('job creates are refused with 502 workflow_engine_refused until the worker has registered them, then succeed', async () => {
    const env = await temporalEnv();
    const namespace = `quire-fresh-${randomUUID().slice(0, 8)}`;
    await env.connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    const operator = env.connection.operatorService;
    const custom = async () => Object.keys((await operator.listSearchAttributes({ namespace })).customAttributes ?? {});
    const ours = SEARCH_ATTRIBUTES.map((a) => a.name).sort();
    assert.deepEqual((await custom()).filter((name) => ours.includes(name)), [], 'a new namespace has none of them');

    const taskQueue = `fresh-${randomUUID()}`;
    const modelEnv = { QUIRE_MODEL_BASE_URL: 'http://127.0.0.1:9/v1', QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' };
    const services = await testServices({ taskQueue, env: { ...modelEnv, TEMPORAL_NAMESPACE: namespace } });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'fresh', orgId: 'acme', repository: 'https://example.com/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;

    const refused = await call<{ error: string; code: string }>(`${base}/v2/agent/fresh/job`, 'POST', adminKey, { prompt: 'Fix the typo' });
    assert.equal(refused.status, 502);
    assert.equal(refused.body.code, 'workflow_engine_refused');
    assert.doesNotMatch(refused.body.error, /search attribute|QuireProjectId/, 'Temporal’s own text stays in the log');
    const listed = await call<{ jobs: JobView[] }>(`${base}/v2/agent/fresh/jobs`, 'GET', adminKey);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.jobs, [], 'a refused create leaves no job behind');
    // The API's metrics tell the operator it was Temporal that refused the start.
    assert.equal(await temporalCalls(services, 'start', 'error'), 1);
    assert.equal(await temporalCalls(services, 'start', 'ok'), 0);

    const worker = spawnWorker({ ...modelEnv, TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue, QUIRE_DATA_DIR: services.config.dataDir, LOG_LEVEL: 'info' });
    const deadline = Date.now() + 60_000;
    while (!worker.output().includes('worker started')) {
      if (Date.now() > deadline) throw new Error(`the worker did not start:\n${worker.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual((await custom()).filter((name) => ours.includes(name)).sort(), ours, worker.output());
    assert.match(worker.output(), /search attributes registered/);

    const created = await call<JobView>(`${base}/v2/agent/fresh/job`, 'POST', adminKey, { prompt: 'Fix the typo' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, 'active');
    assert.equal(await temporalCalls(services, 'start', 'ok'), 1);
    assert.equal(await temporalCalls(services, 'start', 'error'), 1);
    // A second registration finds them all: nothing to add.
    assert.deepEqual(await registerSearchAttributes(operator, namespace), []);
    worker.child.kill('SIGTERM');
    await worker.exited;
  });

  it('a namespace that does not exist: /readyz says Temporal is not usable (degraded), and creates are refused with 502', async () => {
    const modelEnv = { QUIRE_MODEL_BASE_URL: 'http://127.0.0.1:9/v1', QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' };
    const services = await testServices({ env: { ...modelEnv, TEMPORAL_NAMESPACE: `quire-missing-${randomUUID().slice(0, 8)}` } });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'nowhere', orgId: 'acme', repository: 'https://example.com/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;
    const ready = await call<{ status: string; degraded: string[]; checks: Record<string, string> }>(`${base}/readyz`, 'GET', null);
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'degraded');
    assert.deepEqual(ready.body.degraded, ['temporal']);
    assert.match(ready.body.checks.temporal ?? '', /^down: .*NOT_FOUND/);
    assert.equal(ready.body.checks.database, 'ok');
    const refused = await call<{ code: string }>(`${base}/v2/agent/nowhere/job`, 'POST', adminKey, { prompt: 'Fix the typo' });
    assert.equal(refused.status, 502);
    assert.equal(refused.body.code, 'workflow_engine_refused');
  });
});
