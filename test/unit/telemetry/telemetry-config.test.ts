import assert from 'node:assert/strict';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ConfigError, loadConfig } from '../../../core/config.js';
import { exporterFromEnv, startTracing, TracingConfigError } from '../../../core/telemetry/index.js';

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

  it('metrics listeners default to loopback 9464 and 9465; a shared port is refused by name', () => {
    assert.deepEqual(loadConfig({}).metrics, { host: '127.0.0.1', apiPort: 9464, workerPort: 9465, orgLabel: false });
    assert.throws(() => loadConfig({ QUIRE_METRICS_PORT: '9000', QUIRE_WORKER_METRICS_PORT: '9000' }), (err: unknown) => err instanceof ConfigError && /QUIRE_WORKER_METRICS_PORT/.test(err.message));
    assert.throws(() => loadConfig({ QUIRE_METRICS_ORG_LABEL: 'yes' }), (err: unknown) => err instanceof ConfigError && /QUIRE_METRICS_ORG_LABEL: must be true or false/.test(err.message));
  });
});
