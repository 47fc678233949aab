/**
 * A failure leaves the process named by its error class only, whatever recorded it: through the
 * real OTLP/HTTP JSON exporter to a local receiver, and through the in-memory exporter the
 * integration tests read.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { FailureClassOnlyExporter, markFailed } from '../../../core/telemetry/index.js';

const SECRET = 'quoted-prompt-3e9d1a';

function tracerOver(exporter: SpanExporter) {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FailureClassOnlyExporter(exporter))] });
  return { tracer: provider.getTracer('test'), provider };
}

describe('spans leave with a failure named by its class only', () => {
  it('an exception recorded with its message and stack, and a status quoting it, keep the class alone; other events and spans pass as they are', async () => {
    const memory = new InMemorySpanExporter();
    const { tracer, provider } = tracerOver(memory);

    // As Temporal's interceptors record a failed call: the exception, and its message as the status.
    const failed = tracer.startSpan('DescribeWorkflow');
    failed.addEvent('retrieval search', { 'quire.duration_ms': 0.2 });
    failed.recordException(new TypeError(`no such page: ${SECRET}`));
    failed.setStatus({ code: SpanStatusCode.ERROR, message: `no such page: ${SECRET}` });
    failed.end();
    // A string thrown: no class to keep, so nothing of it stays.
    const thrown = tracer.startSpan('RunActivity:runAgentTurn');
    thrown.recordException(`failed on ${SECRET}`);
    thrown.setStatus({ code: SpanStatusCode.ERROR, message: `failed on ${SECRET}` });
    thrown.end();
    // Quire's own: already the class only.
    const ours = tracer.startSpan('chat test-model');
    markFailed(ours, new RangeError(SECRET));
    ours.end();
    const fine = tracer.startSpan('GET /v2/agent/:projectId/job/:id');
    fine.setAttribute('http.response.status_code', 200);
    fine.end();
    await provider.forceFlush();

    const [a, b, c, d] = memory.getFinishedSpans();
    assert.deepEqual(
      a!.events.map((e) => [e.name, e.attributes]),
      [
        ['retrieval search', { 'quire.duration_ms': 0.2 }],
        ['exception', { 'exception.type': 'TypeError' }],
      ],
    );
    assert.deepEqual(a!.status, { code: SpanStatusCode.ERROR, message: 'TypeError' });
    assert.equal(a!.name, 'DescribeWorkflow');
    assert.equal(a!.spanContext().spanId, failed.spanContext().spanId);
    assert.deepEqual(b!.events.map((e) => e.attributes), [{}]);
    assert.deepEqual(b!.status, { code: SpanStatusCode.ERROR });
    // Nothing to remove: the span itself goes on.
    assert.equal(c, ours);
    assert.deepEqual(c!.status, { code: SpanStatusCode.ERROR, message: 'RangeError' });
    assert.equal(d, fine);
    for (const span of [a, b, c, d]) assert.doesNotMatch(JSON.stringify({ status: span!.status, events: span!.events, attributes: span!.attributes }), new RegExp(SECRET));
  });

  it('through the OTLP/HTTP JSON exporter, the receiver gets the span whole but for the message and stack', async () => {
    const bodies: string[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;
      const { tracer, provider } = tracerOver(new OTLPTraceExporter({ url }));
      const span = tracer.startSpan('StartWorkflow:agentJobWorkflow', { attributes: { temporalWorkflowId: 'job_1' } });
      span.recordException(new Error(`refused: ${SECRET}`));
      span.setStatus({ code: SpanStatusCode.ERROR, message: `refused: ${SECRET}` });
      span.end();
      await provider.forceFlush();
      await provider.shutdown();

      const received = bodies.join('\n');
      assert.doesNotMatch(received, new RegExp(SECRET));
      const sent = JSON.parse(bodies[0]!) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string; traceId: string; attributes: unknown[]; events: Array<{ name: string; attributes: unknown[] }>; status: unknown }> }> }>;
      };
      const [exported] = sent.resourceSpans[0]!.scopeSpans[0]!.spans;
      assert.equal(exported!.name, 'StartWorkflow:agentJobWorkflow');
      assert.equal(exported!.traceId, span.spanContext().traceId);
      assert.deepEqual(exported!.attributes, [{ key: 'temporalWorkflowId', value: { stringValue: 'job_1' } }]);
      assert.deepEqual(
        exported!.events.map((e) => [e.name, e.attributes]),
        [['exception', [{ key: 'exception.type', value: { stringValue: 'Error' } }]]],
      );
      assert.deepEqual(exported!.status, { code: SpanStatusCode.ERROR, message: 'Error' });
    } finally {
      receiver.close();
    }
  });
});
