import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { encodeTraceRequest } from '../../../core/telemetry/otlp-protobuf.js';
import { exporterFromEnv } from '../../../core/telemetry/index.js';

// The OTLP message types as protobufjs generated them for the SDK: the reference decoder.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const RequestType = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const decode = (bytes: Uint8Array) => RequestType.toObject(RequestType.decode(bytes), { longs: String, bytes: String, defaults: true });

/** Finished spans of two instrumentation scopes covering every field OTLP carries: parents, kinds, attribute types, events, links, status, trace state. */
function recordedSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: new Resource({ 'service.name': 'quire-test', 'process.pid': 42 }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const quire = provider.getTracer('quire');
  const temporal = provider.getTracer('@temporalio/interceptor-client', '1.24.0');
  const link = { context: { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), traceFlags: TraceFlags.SAMPLED, traceState: new TraceState('vendor=1') }, attributes: { why: 'follows' } };
  const root = quire.startSpan('POST /v2/agent/:projectId/job', { kind: SpanKind.SERVER, links: [link] });
  root.setAttributes({
    'http.request.method': 'POST',
    'http.response.status_code': 201,
    'quire.ratio': 0.25,
    'quire.negative': -7,
    'quire.big': 2 ** 40,
    'quire.flag': true,
    'quire.names': ['a', 'é', ''],
    'quire.sizes': [1, 2, 3],
    'quire.long': 'x'.repeat(300),
  });
  root.addEvent('retrieval search', { 'quire.duration_ms': 0.125, 'quire.retrieval.page_size': 8 });
  root.addEvent('bare');
  const child = temporal.startSpan('StartWorkflow:agentJob', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, root));
  child.setAttribute('temporalWorkflowId', 'job_1');
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'WorkflowExecutionAlreadyStartedError' });
  child.end();
  root.setStatus({ code: SpanStatusCode.OK });
  root.end();
  const internal = quire.startSpan('git clone');
  internal.end();
  return exporter.getFinishedSpans();
}

describe('OTLP protobuf encoding', () => {
  it('encodes finished spans to the same ExportTraceServiceRequest as the SDK serializer', () => {
    const spans = recordedSpans();
    assert.equal(spans.length, 3);
    const ours = decode(encodeTraceRequest(spans));
    const sdk = decode(ProtobufTraceSerializer.serializeRequest(spans)!);
    assert.deepEqual(ours, sdk);
    // What the comparison covers, read back from our encoding.
    const scopes = ours.resourceSpans[0].scopeSpans;
    assert.deepEqual(scopes.map((s: { scope: { name: string } }) => s.scope.name).sort(), ['@temporalio/interceptor-client', 'quire']);
    const server = scopes.find((s: { scope: { name: string } }) => s.scope.name === 'quire').spans[0];
    assert.equal(server.attributes.find((a: { key: string }) => a.key === 'quire.negative').value.intValue, '-7');
    assert.equal(server.events.length, 2);
    assert.equal(server.links[0].traceState, 'vendor=1');
  });

  it('an empty batch is an empty request', () => {
    assert.deepEqual(decode(encodeTraceRequest([])), decode(ProtobufTraceSerializer.serializeRequest([])!));
  });

  it('the configured http/protobuf exporter posts the encoding to the traces path', async () => {
    const received: Array<{ url: string | undefined; type: string | undefined; body: Buffer }> = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const exporter = exporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` })!;
      const spans = recordedSpans();
      const result = await new Promise<{ code: number }>((resolve) => exporter.export(spans, resolve));
      assert.equal(result.code, 0);
      assert.equal(received.length, 1);
      assert.equal(received[0]!.url, '/v1/traces');
      assert.equal(received[0]!.type, 'application/x-protobuf');
      assert.deepEqual(decode(received[0]!.body), decode(ProtobufTraceSerializer.serializeRequest(spans)!));
      await exporter.shutdown();
    } finally {
      server.close();
    }
  });
});
