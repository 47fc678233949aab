import { randomBytes } from 'node:crypto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  NoopSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { FailureClassOnlyExporter } from './failure-class-only.js';
import { carryLogFieldsInTraceContext } from './log-context.js';
import { keepTickShape } from './tick-shape.js';

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

/** The ratio OTEL_TRACES_SAMPLER_ARG gives (1 when unset), refused by name unless it is between 0 and 1. */
function samplerRatio(env: NodeJS.ProcessEnv): number {
  const arg = env.OTEL_TRACES_SAMPLER_ARG;
  if (arg === undefined || arg === '') return 1;
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new TracingConfigError('OTEL_TRACES_SAMPLER_ARG: must be a ratio between 0 and 1');
  return ratio;
}

/**
 * The sampler the standard variables ask for: OTEL_TRACES_SAMPLER (`parentbased_always_on` when
 * unset, as the specification says) and, for the ratio samplers, OTEL_TRACES_SAMPLER_ARG. A trace
 * not sampled costs little: its spans record nothing and are never exported.
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = env.OTEL_TRACES_SAMPLER || 'parentbased_always_on';
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(samplerRatio(env));
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(samplerRatio(env)) });
    default:
      throw new TracingConfigError(
        'OTEL_TRACES_SAMPLER: must be always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio',
      );
  }
}

const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * Trace and span ids cut from a pool of random hex, refilled 4 KiB at a time: one `randomBytes`
 * and one hex conversion per few hundred ids instead of a buffer write and a hex conversion per id
 * (the SDK's generator's cost on every span). The all-zero id, which W3C trace context calls
 * invalid, is never handed out.
 */
class PooledIdGenerator implements IdGenerator {
  private pool = '';
  private at = 0;

  generateTraceId(): string {
    const id = this.take(32);
    return id === ZERO_TRACE_ID ? this.generateTraceId() : id;
  }

  generateSpanId(): string {
    const id = this.take(16);
    return id === ZERO_SPAN_ID ? this.generateSpanId() : id;
  }

  private take(chars: number): string {
    if (this.at + chars > this.pool.length) {
      this.pool = randomBytes(4096).toString('hex');
      this.at = 0;
    }
    this.at += chars;
    return this.pool.slice(this.at - chars, this.at);
  }
}

/** How long a finished span waits for its batch when OTEL_BSP_SCHEDULE_DELAY does not say. */
const EXPORT_DELAY_MS = 1000;

/**
 * The batch processor's settings Quire chooses where the OTEL_BSP_* variables are unset (the SDK
 * reads those itself): export every second instead of every 5 s, so spans leave memory before the
 * garbage collector moves them to the old generation, whose collections cost more.
 */
export function batchDefaults(env: NodeJS.ProcessEnv): { scheduledDelayMillis?: number } {
  return env.OTEL_BSP_SCHEDULE_DELAY ? {} : { scheduledDelayMillis: EXPORT_DELAY_MS };
}

/**
 * Starts tracing for this process, once, before the code it traces runs: registers the global
 * tracer provider, the async context and W3C trace-context propagation. Nothing is registered or
 * exported unless an OTLP endpoint is configured (or a test gives its own exporter, `given`).
 */
export function startTracing(defaultServiceName: string, env: NodeJS.ProcessEnv = process.env, given?: SpanExporter): Tracing {
  // Traced or not: the process has loaded the tracing SDK either way (see keepTickShape).
  keepTickShape();
  const exporter = given ?? exporterFromEnv(env);
  const serviceName = env.OTEL_SERVICE_NAME || defaultServiceName;
  const resource = new Resource({ 'service.name': serviceName });
  if (!exporter) return { enabled: false, serviceName, resource, processor: new NoopSpanProcessor(), shutdown: async () => {} };
  // A test's own exporter sees each span as it ends; a configured one gets batches off the request path.
  // Either way a failure leaves the process named by its class only (Temporal's interceptors record messages and stacks).
  const processor = given ? new SimpleSpanProcessor(new FailureClassOnlyExporter(given)) : new BatchSpanProcessor(new FailureClassOnlyExporter(exporter), batchDefaults(env));
  const provider = new NodeTracerProvider({ resource, sampler: samplerFromEnv(env), spanProcessors: [processor], idGenerator: new PooledIdGenerator() });
  provider.register();
  carryLogFieldsInTraceContext();
  return { enabled: true, serviceName, resource, processor, shutdown: () => provider.shutdown() };
}
