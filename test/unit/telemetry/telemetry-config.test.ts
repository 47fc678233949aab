import assert from 'node:assert/strict';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ConfigError, loadConfig } from '../../../core/config.js';
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-node';
import { batchDefaults, exporterFromEnv, samplerFromEnv, startTracing, TracingConfigError } from '../../../core/telemetry/index.js';

describe('telemetry configuration', () => {
  it('exports nothing unless an OTLP endpoint is set', () => {
    assert.equal(exporterFromEnv({}), undefined);
    const tracing = startTracing('quire-api', {});
    assert.equal(tracing.enabled, false);
    assert.equal(tracing.serviceName, 'quire-api');
  });

  it('picks the OTLP/HTTP encoding from OTEL_EXPORTER_OTLP_PROTOCOL and refuses gRPC by name', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    assert.ok(exporterFromEnv(endpoint) instanceof ProtobufTraceExporter);
    assert.ok(exporterFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }) instanceof JsonTraceExporter);
    assert.throws(() => exporterFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), (err: unknown) => err instanceof TracingConfigError && /OTEL_EXPORTER_OTLP_PROTOCOL/.test(err.message));
    assert.equal(exporterFromEnv({ ...endpoint, OTEL_SDK_DISABLED: 'true' }), undefined);
  });

  it('exports a batch every second unless OTEL_BSP_SCHEDULE_DELAY says otherwise (the SDK reads it then)', () => {
    assert.deepEqual(batchDefaults({}), { scheduledDelayMillis: 1000 });
    assert.deepEqual(batchDefaults({ OTEL_BSP_SCHEDULE_DELAY: '5000' }), {});
    // The other batch settings are the SDK's own defaults or the operator's OTEL_BSP_* values.
    assert.deepEqual(batchDefaults({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '64' }), { scheduledDelayMillis: 1000 });
  });

  it('samples traces as OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG say, parent-based always-on by default; bad values refused by name', () => {
    const decide = (env: NodeJS.ProcessEnv, traceId: string) =>
      samplerFromEnv(env).shouldSample(ROOT_CONTEXT, traceId, 'GET /x', SpanKind.SERVER, {}, []).decision;
    const low = '00000000000000000000000000000001';
    const high = 'ffffffff000000000000000000000000';
    assert.equal(decide({}, high), SamplingDecision.RECORD_AND_SAMPLED);
    assert.equal(decide({ OTEL_TRACES_SAMPLER: 'always_off' }, low), SamplingDecision.NOT_RECORD);
    // A ratio keeps the traces whose id falls under it: the same trace is kept or dropped in every process.
    const ratio = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
    assert.equal(decide(ratio, low), SamplingDecision.RECORD_AND_SAMPLED);
    assert.equal(decide(ratio, high), SamplingDecision.NOT_RECORD);
    // Parent-based: a sampled caller's trace is kept whatever the ratio.
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: high, spanId: '0000000000000001', traceFlags: TraceFlags.SAMPLED, isRemote: true });
    assert.equal(samplerFromEnv(ratio).shouldSample(parent, high, 'GET /x', SpanKind.SERVER, {}, []).decision, SamplingDecision.RECORD_AND_SAMPLED);
    const refused = (env: NodeJS.ProcessEnv, name: string) => assert.throws(() => samplerFromEnv(env), (err: unknown) => err instanceof TracingConfigError && err.message.startsWith(name));
    refused({ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER:');
    refused({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }, 'OTEL_TRACES_SAMPLER_ARG:');
  });

  it('metrics listeners default to loopback 9464 and 9465; a shared port is refused by name', () => {
    assert.deepEqual(loadConfig({}).metrics, { host: '127.0.0.1', apiPort: 9464, workerPort: 9465, orgLabel: false });
    assert.throws(() => loadConfig({ QUIRE_METRICS_PORT: '9000', QUIRE_WORKER_METRICS_PORT: '9000' }), (err: unknown) => err instanceof ConfigError && /QUIRE_WORKER_METRICS_PORT/.test(err.message));
    assert.throws(() => loadConfig({ QUIRE_METRICS_ORG_LABEL: 'yes' }), (err: unknown) => err instanceof ConfigError && /QUIRE_METRICS_ORG_LABEL: must be true or false/.test(err.message));
  });
});
