import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { Registry } from 'prom-client';
import { startTracing, type QuireMetrics, type Tracing } from '../core/telemetry/index.js';

/** An OTLP/HTTP receiver that accepts every export and keeps nothing: spans really leave the process. */
export async function startOtlpSink(): Promise<{ url: string; exports: () => number; close(): void }> {
  let exports = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports: () => exports, close: () => server.close() };
}

/**
 * Tracing on, exporting over OTLP/HTTP protobuf to `endpoint`, as an operator would configure it;
 * the sampler as the bench's own OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG say (every trace when unset).
 */
export function tracingOn(endpoint: string): Tracing {
  const { OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG } = process.env;
  return startTracing('quire-bench', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG });
}

/** Tracing off again: what was queued is exported, then the global provider, context and propagator are removed. */
export async function tracingOff(tracing: Tracing): Promise<void> {
  await tracing.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

/** Metrics that record nothing: the "off" side of the comparison. */
export function silentMetrics(): QuireMetrics {
  const none = () => undefined;
  return {
    registry: new Registry(),
    http: { observeRequest: none },
    assistant: { firstToken: none, answered: none },
    retrieval: { observeSearch: none },
    limits: { rejected: none },
    db: { observeQuery: none },
    model: { observeRequest: none, tokens: none },
    agent: { turnEnded: none, pullRequest: none },
    webhooks: { delivered: none },
    indexing: { pagesIndexed: none },
  };
}
