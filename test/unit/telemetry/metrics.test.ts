import assert from 'node:assert/strict';
import { createMetrics } from '../../../core/telemetry/index.js';

/** The value of the one exposition line of `series` whose labels include every one of `labels`. */
function valueOf(text: string, series: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => {
    const m = l.match(/^([a-z_]+)(?:\{(.*)\})? (\S+)$/);
    return m?.[1] === series && Object.entries(labels).every(([k, v]) => (m[2] ?? '').split(',').includes(`${k}="${v}"`));
  });
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('metrics exposition', () => {
  it('histograms expose cumulative buckets, +Inf, sum and count per label set, and an unlabelled one before its first observation', async () => {
    const metrics = createMetrics({ orgLabel: false });
    const route = { method: 'POST', route: '/v2/agent/:projectId/job', org: undefined };
    metrics.http.observeRequest({ ...route, status: 201 }, 0.004);
    metrics.http.observeRequest({ ...route, status: 201 }, 0.3);
    metrics.http.observeRequest({ ...route, status: 201 }, 60);
    metrics.http.observeRequest({ ...route, status: 429 }, 0.002);
    metrics.db.observeQuery('select', 0.0005);
    const text = await metrics.registry.metrics();
    const created = { method: 'POST', route: '/v2/agent/:projectId/job', status: '201' };
    const bucket = (le: string, labels = created) => valueOf(text, 'quire_http_request_duration_seconds_bucket', { ...labels, le });
    assert.equal(bucket('0.001'), 0);
    assert.equal(bucket('0.005'), 1);
    assert.equal(bucket('0.25'), 1);
    assert.equal(bucket('0.5'), 2);
    assert.equal(bucket('10'), 2);
    assert.equal(bucket('+Inf'), 3);
    assert.equal(valueOf(text, 'quire_http_request_duration_seconds_count', created), 3);
    assert.ok(Math.abs(valueOf(text, 'quire_http_request_duration_seconds_sum', created)! - 60.304) < 1e-9);
    assert.equal(bucket('0.005', { ...created, status: '429' }), 1);
    assert.equal(valueOf(text, 'quire_db_query_duration_seconds_bucket', { operation: 'select', le: '0.001' }), 1);
    assert.match(text, /# TYPE quire_http_request_duration_seconds histogram/);
    assert.equal(valueOf(text, 'quire_retrieval_duration_seconds_count', {}), 0, 'an unlabelled histogram is exposed at zero');
    const json = (await metrics.registry.getSingleMetric('quire_db_query_duration_seconds')!.get()) as { values: Array<{ metricName?: string; value: number }> };
    assert.equal(json.values.find((v) => v.metricName === 'quire_db_query_duration_seconds_count')?.value, 1);
  });

  it('exposes every alerted outcome at zero from the start, so the first failure of a process is an increase', async () => {
    const text = await createMetrics({ orgLabel: false }).registry.metrics();
    for (const outcome of ['delivered', 'failed', 'gave_up']) assert.equal(valueOf(text, 'quire_webhook_deliveries_total', { outcome }), 0, outcome);
    for (const outcome of ['finish', 'failed']) assert.equal(valueOf(text, 'quire_agent_turns_total', { outcome }), 0, outcome);
    for (const outcome of ['answered', 'failed', 'aborted']) assert.equal(valueOf(text, 'quire_assistant_answers_total', { outcome }), 0, outcome);
  });

  it('adds the org label only when asked for', async () => {
    const metrics = createMetrics({ orgLabel: true });
    metrics.http.observeRequest({ method: 'GET', route: '/v1/x', status: 200, org: 'acme' }, 0.01);
    const text = await metrics.registry.metrics();
    assert.equal(valueOf(text, 'quire_http_request_duration_seconds_count', { org: 'acme', route: '/v1/x' }), 1);
  });

  it('request, statement and Temporal call observations taken in bulk are all in every scrape, across batch boundaries', async () => {
    const metrics = createMetrics({ orgLabel: false });
    const job = { method: 'GET', route: '/v2/agent/:projectId/job/:id', status: 200, org: undefined };
    const scrape = async () => {
      const text = await metrics.registry.metrics();
      return {
        requests: valueOf(text, 'quire_http_request_duration_seconds_count', { route: job.route, status: '200' }),
        fast: valueOf(text, 'quire_http_request_duration_seconds_bucket', { route: job.route, status: '200', le: '0.001' }),
        sum: valueOf(text, 'quire_http_request_duration_seconds_sum', { route: job.route, status: '200' }),
        selects: valueOf(text, 'quire_db_query_duration_seconds_count', { operation: 'select' }),
        inserts: valueOf(text, 'quire_db_query_duration_seconds_count', { operation: 'insert' }),
        starts: valueOf(text, 'quire_temporal_request_duration_seconds_count', { operation: 'start', outcome: 'ok' }),
      };
    };
    // 700 requests: two full batches handed over on their own, and 188 waiting for the scrape.
    for (let i = 0; i < 700; i++) {
      metrics.http.observeRequest(job, i % 2 ? 0.0005 : 0.002);
      metrics.db.observeQuery('select', 0.0001);
      metrics.temporal.observeCall('start', 'ok', 0.008);
    }
    metrics.db.observeQuery('insert', 0.0002);
    metrics.http.observeRequest(job, Number.NaN);
    assert.deepEqual({ ...(await scrape()), sum: undefined }, { requests: 700, fast: 350, sum: undefined, selects: 700, inserts: 1, starts: 700 });
    assert.ok(Math.abs((await scrape()).sum! - 350 * 0.0005 - 350 * 0.002) < 1e-9);
    // Observed after a scrape: in the next one, and nothing counted twice.
    metrics.http.observeRequest(job, 0.0005);
    metrics.db.observeQuery('insert', 0.0002);
    metrics.temporal.observeCall('start', 'ok', 0.008);
    const after = await scrape();
    assert.equal(after.requests, 701);
    assert.equal(after.fast, 351);
    assert.equal(after.selects, 700);
    assert.equal(after.inserts, 2);
    assert.equal(after.starts, 701);
  });
});
