import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  NoopSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';

/** The process's tracing: what the Temporal worker's workflow-span sink exports through, and how to flush at exit. */
export interface Tracing {
  /** False: no exporter is configured; spans are not recorded and logs carry no trace ids. */
  enabled: boolean;
  serviceName: string;
  resource: Resource;
  processor: SpanProcessor;
  /** Exports what is still queued; called once at exit. */
  shutdown(): Promise<void>;
}

/** An OTEL_* variable Quire cannot honour; named like a configuration error. */
export class TracingConfigError extends Error {
  override name = 'TracingConfigError';
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** The OTLP/HTTP exporter the standard variables ask for, or undefined when none is configured. */
export function exporterFromEnv(env: NodeJS.ProcessEnv): SpanExporter | undefined {
  if (env.OTEL_SDK_DISABLED === 'true') return undefined;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
    throw new TracingConfigError(`${name}: must be http/protobuf or http/json (Quire exports over OTLP/HTTP)`);
  }
  // The URL from `env` as the specification builds it (the signal path after the shared endpoint); headers and timeout the exporters read themselves.
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').replace(/\/+$/, '')}/v1/traces`;
  return protocol === 'http/json' ? new JsonTraceExporter({ url }) : new ProtobufTraceExporter({ url });
}

/**
 * Starts tracing for this process, once, before the code it traces runs: registers the global
 * tracer provider, the async context and W3C trace-context propagation. Nothing is registered or
 * exported unless an OTLP endpoint is configured (or a test gives its own exporter, `given`).
 */
export function startTracing(defaultServiceName: string, env: NodeJS.ProcessEnv = process.env, given?: SpanExporter): Tracing {
  const exporter = given ?? exporterFromEnv(env);
  const serviceName = env.OTEL_SERVICE_NAME || defaultServiceName;
  const resource = new Resource({ 'service.name': serviceName });
  if (!exporter) return { enabled: false, serviceName, resource, processor: new NoopSpanProcessor(), shutdown: async () => {} };
  // A test's own exporter sees each span as it ends; a configured one gets batches off the request path.
  const processor = given ? new SimpleSpanProcessor(given) : new BatchSpanProcessor(exporter);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  return { enabled: true, serviceName, resource, processor, shutdown: () => provider.shutdown() };
}
