/**
 * One trace from the API's request through workflow.start, the workflow, its activities and the
 * model call, read back from the SDK's in-memory exporter (the API and a worker in this process,
 * on the suite's real Temporal dev server). No prompt, answer or secret reaches a span, and the
 * request's log lines carry its trace id, span id and request id.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { createLogger } from '../../../core/logger.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/index.js';
import { createMetrics, inSpan, slowStatementSpans, startTracing, type Tracing } from '../../../core/telemetry/index.js';
import { temporalClientInterceptors } from '../../../core/temporal/client-interceptors.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, tempDir, testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { call, pollJob } from '../agent-jobs/agent-api.js';
import { userMessage } from '../assistant/harness.js';
import { SITE } from '../assistant/site.js';
import { temporalLogger } from '../../../worker/runtime-logger.js';
import { workerTelemetry } from '../../../worker/telemetry.js';

const PROMPT_SECRET = 'prompt-marker-7f3a9c';
const ANSWER_SECRET = 'answer-marker-91b2e4';
const FILE_SECRET = 'file-marker-c0ffee';
const MODEL_KEY = 'sk-telemetry-model-key-5d8e2b';
/** The trace and span of a caller that sends the answer request with W3C trace context. */
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

function modelReply(req: RecordedRequest): Reply {
  if (req.body.stream) return { text: `Install it with the installer ${ANSWER_SECRET} [1].` };
  if (!req.body.messages.some((m) => m.role === 'tool')) {
    return { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: `Install the ${FILE_SECRET} 1` } }] };
  }
  return { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget', summary: 'Says gadget.' } }] };
}

function attributeText(spans: ReadableSpan[]): string {
  return spans.map((s) => `${s.name} ${JSON.stringify(s.attributes)} ${JSON.stringify(s.events)}`).join('\n');
}

describe('traces and correlated logs', function () {
  this.timeout(120_000);
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;

  before(() => {
    tracing = startTracing('quire-test', {}, exporter);
  });
  after(() => tracing.shutdown());

  it('one trace joins the request, workflow.start, the workflow, the turn activity and the model call; no prompt, answer, file text or secret in a span', async () => {
    const model = await startFakeModel((req) => modelReply(req));
    const repo = await createDocsRepo({ pages: 3, withNav: true });
    const taskQueue = `trace-${randomUUID()}`;
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(JSON.parse(chunk.toString())), done()) }));
    // Every statement a span (the default keeps only those of 5 ms or more).
    const built = await testServices({ taskQueue, env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: MODEL_KEY, QUIRE_MODEL: 'test-model', QUIRE_TRACE_SLOW_QUERY_MS: '0' } });
    const env = await temporalEnv();
    const services = { ...built, logger, temporal: new Client({ connection: env.connection, namespace: env.namespace ?? 'default', interceptors: temporalClientInterceptors(built.metrics.temporal) }) };
    const { adminKey, assistantKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await services.tenants.putDomain({ id: 'site', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com/', includeHidden: false });
    const docIndex = new EmbeddedDocIndex(path.join(await tempDir('quire-index-'), 'index'));
    await docIndex.applyChanges('site', { upserts: SITE, removals: [] });
    services.docIndex = docIndex;
    await startWorker(services, { taskQueue, tracing });
    const base = (await serve(createApp(services))).url;

    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: `Say gadget on page 1 ${PROMPT_SECRET}` });
    assert.equal(created.status, 201);
    const requestId = created.headers.get('x-request-id');
    const done = await pollJob(base, adminKey, 'docs', created.body.id, (j) => j.status !== 'active', 60_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const answer = await fetch(`${base}/discovery/v2/assistant/site/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${assistantKey}`, traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      body: JSON.stringify({ fp: 'anonymous', messages: [userMessage(`How do I install the widget? ${PROMPT_SECRET}`)] }),
    });
    assert.match(await answer.text(), new RegExp(ANSWER_SECRET), 'the answer streamed');
    // The workflow's own span ends with its run, a moment after the job's record reads completed.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      await tracing.processor.forceFlush();
      if (exporter.getFinishedSpans().some((s) => s.name.startsWith('RunWorkflow:'))) break;
    }

    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'POST /v2/agent/:projectId/job');
    assert.ok(request, `a request span among: ${spans.map((s) => s.name).join(', ')}`);
    // A request without trace context starts a trace of its own.
    assert.equal(request.parentSpanId, undefined);
    assert.equal(request.attributes['http.request.method'], 'POST');
    assert.equal(request.attributes['http.response.status_code'], 201);
    const trace = spans.filter((s) => s.spanContext().traceId === request.spanContext().traceId);
    const names = trace.map((s) => s.name);
    for (const expected of ['StartWorkflow:', 'StartActivity:runAgentTurn', 'RunActivity:runAgentTurn', 'chat test-model', 'git ']) {
      assert.ok(names.some((n) => n.startsWith(expected)), `${expected} in the request's trace: ${names.join(', ')}`);
    }
    // The client's start is a child of the request span, names the workflow and its run, and parents the workflow's own span (through the header).
    const start = trace.find((s) => s.name.startsWith('StartWorkflow:'))!;
    assert.equal(start.parentSpanId, request.spanContext().spanId);
    assert.equal(typeof start.attributes.temporalWorkflowId, 'string');
    assert.equal(typeof start.attributes.run_id, 'string');
    assert.equal(start.status.code, SpanStatusCode.OK);
    // The create's record went to the database inside the request's trace.
    const insert = trace.find((s) => s.name === 'db insert' && s.parentSpanId === request.spanContext().spanId);
    assert.ok(insert, `the create's insert is a span of its request: ${names.join(', ')}`);
    assert.equal(insert.kind, SpanKind.CLIENT);
    assert.equal(insert.attributes['db.system'], 'sqlite');
    assert.equal(insert.attributes['db.operation.name'], 'insert');
    const run = trace.find((s) => s.name.startsWith('RunWorkflow:'));
    assert.equal(run?.parentSpanId, start.spanContext().spanId, `the workflow run under the start: ${names.join(', ')}`);
    const chat = trace.find((s) => s.name === 'chat test-model')!;
    assert.equal(chat.attributes['gen_ai.request.model'], 'test-model');
    assert.equal(chat.attributes['gen_ai.operation.name'], 'chat');
    assert.ok(Number(chat.attributes['gen_ai.usage.input_tokens']) > 0, 'token usage recorded');
    // The workflow's own spans came through the worker's sink, parented in the same trace.
    const turnStart = trace.find((s) => s.name.startsWith('StartActivity:runAgentTurn'))!;
    assert.equal(trace.find((s) => s.name.startsWith('RunActivity:runAgentTurn'))!.parentSpanId, turnStart.spanContext().spanId);

    const everything = attributeText(spans);
    for (const secret of [PROMPT_SECRET, ANSWER_SECRET, FILE_SECRET, MODEL_KEY, adminKey, assistantKey]) {
      assert.ok(!everything.includes(secret), `no span carries ${secret.slice(0, 12)}…`);
    }
    const asked = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'POST /discovery/v2/assistant/:domain/message');
    assert.ok(asked, 'the answer has its request span');
    // The answer's request came with a traceparent: its span continues the caller's trace.
    assert.equal(asked.spanContext().traceId, CALLER_TRACE);
    assert.equal(asked.parentSpanId, CALLER_SPAN);
    // The search is an event of the request span, with its duration; the model call is a child span.
    const search = asked.events.find((e) => e.name === 'retrieval search');
    assert.ok(search && typeof search.attributes?.['quire.duration_ms'] === 'number', `a retrieval event with its duration: ${JSON.stringify(asked.events)}`);
    const answerChat = spans.find((s) => s.parentSpanId === asked.spanContext().spanId && s.name === 'chat test-model');
    assert.ok(answerChat, 'the answer\'s model call is a span of its request');
    assert.equal(answerChat.spanContext().traceId, asked.spanContext().traceId);

    // The request's own log line carries its trace, span and request id.
    const line = lines.find((l) => l.msg === 'request' && l.requestId === requestId);
    assert.ok(line, 'the request was logged');
    assert.equal(line.trace_id, request.spanContext().traceId);
    assert.equal(line.span_id, request.spanContext().spanId);
    // Activity lines of the job carry the job and workflow ids and the activity span's trace.
    // (API lines of the job's routes name the job too, each in its own request's trace: they carry a request id.)
    const activityLine = lines.find((l) => l.jobId === created.body.id && typeof l.workflowId === 'string' && l.trace_id && !l.requestId);
    assert.ok(activityLine, `an activity line with job id, workflow id and trace: ${JSON.stringify(lines.filter((l) => l.jobId).slice(0, 3))}`);
    assert.equal(activityLine.trace_id, request.spanContext().traceId);
  });

  it("the SDK's own line for a failed activity, written after the activity's span ended, carries that span's trace and span ids", async () => {
    exporter.reset();
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(JSON.parse(chunk.toString())), done()) }));
    const { interceptors } = workerTelemetry(tracing);
    const env = new MockActivityEnvironment({ activityType: 'cloneRepository' }, { logger: temporalLogger(logger), interceptors: interceptors.activity });
    await assert.rejects(
      env.run(async () => {
        throw ApplicationFailure.nonRetryable('the repository could not be cloned', 'CloneFailed');
      }),
      /could not be cloned/,
    );
    const span = exporter.getFinishedSpans().find((s) => s.name === 'RunActivity:cloneRepository');
    assert.ok(span, `the activity's span: ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
    const failed = lines.find((l) => l.msg === 'Activity failed');
    assert.ok(failed, `the SDK's line: ${JSON.stringify(lines)}`);
    assert.equal(failed.trace_id, span.spanContext().traceId);
    assert.equal(failed.span_id, span.spanContext().spanId);
    assert.equal(failed.activityType, 'cloneRepository');
  });

  it('a database statement at least QUIRE_TRACE_SLOW_QUERY_MS long is a span of the trace it ran in, dated from its duration; faster ones and those outside a trace are not', async () => {
    exporter.reset();
    const traced = slowStatementSpans('postgresql', 5);
    traced('select', 1, false);
    await inSpan('outer', {}, async () => {
      traced('select', 0.004, false);
      traced('update', 0.012, true);
    });
    const spans = exporter.getFinishedSpans();
    const outer = spans.find((s) => s.name === 'outer')!;
    const statements = spans.filter((s) => s.name.startsWith('db '));
    assert.deepEqual(statements.map((s) => s.name), ['db update']);
    const [update] = statements;
    assert.equal(update!.parentSpanId, outer.spanContext().spanId);
    assert.equal(update!.spanContext().traceId, outer.spanContext().traceId);
    assert.equal(update!.attributes['db.system'], 'postgresql');
    assert.equal(update!.status.code, SpanStatusCode.ERROR);
    const [seconds, nanos] = update!.duration;
    assert.ok(Math.abs(seconds * 1000 + nanos / 1e6 - 12) < 0.01, `the span lasts the statement's 12 ms: ${update!.duration.join(' s ')} ns`);
  });

  it("a Temporal call that fails leaves its span with the error's class only: the interceptor's message and stack stay in the process", async () => {
    const env = await temporalEnv();
    const client = new Client({ connection: env.connection, namespace: env.namespace ?? 'default', interceptors: temporalClientInterceptors(createMetrics({ orgLabel: false }).temporal) });
    const missing = `missing-${randomUUID()}`;
    exporter.reset();
    const refused = await inSpan('probe', {}, () => client.workflow.getHandle(missing).describe()).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(refused instanceof WorkflowNotFoundError, String(refused));
    await tracing.processor.forceFlush();
    const spans = exporter.getFinishedSpans();
    const probe = spans.find((s) => s.name === 'probe')!;
    const describe = spans.find((s) => s.name === 'DescribeWorkflow');
    assert.ok(describe, `a DescribeWorkflow span among: ${spans.map((s) => s.name).join(', ')}`);
    assert.equal(describe.parentSpanId, probe.spanContext().spanId);
    assert.equal(describe.attributes.temporalWorkflowId, missing);
    assert.deepEqual(describe.status, { code: SpanStatusCode.ERROR, message: 'WorkflowNotFoundError' });
    assert.deepEqual(
      describe.events.map((e) => [e.name, e.attributes]),
      [['exception', { 'exception.type': 'WorkflowNotFoundError' }]],
    );
    assert.deepEqual(probe.status, { code: SpanStatusCode.ERROR, message: 'WorkflowNotFoundError' });
  });
});
