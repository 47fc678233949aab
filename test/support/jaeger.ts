import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { freePort } from './prometheus.js';
import { tempDir } from './services.js';
import { REPO_ROOT } from './temporal.js';
import { stopAtSuiteEnd } from './teardown.js';

/** The Jaeger binary `infra/setup.sh --jaeger` builds, or the one QUIRE_JAEGER_BIN names. */
export const JAEGER_BIN = process.env.QUIRE_JAEGER_BIN ?? path.join(REPO_ROOT, '.tools', 'bin', 'jaeger');

/** A span as Jaeger's query API returns it (`/api/traces/{traceId}`). */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  tags: Array<{ key: string; type: string; value: unknown }>;
  logs: Array<{ fields: Array<{ key: string; value: unknown }> }>;
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: Array<{ key: string; value: unknown }> }>;
}

export interface Jaeger {
  /** The OTLP/HTTP receiver's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  otlpUrl: string;
  /** One trace by id from the query API, or undefined while Jaeger holds none of its spans. */
  trace(traceId: string): Promise<JaegerTrace | undefined>;
}

/**
 * Jaeger all-in-one (the `jaeger` binary, in-memory storage) from a temp folder: only the OTLP/HTTP
 * receiver and the query API, each on a free loopback port; stopped at suite end.
 */
export async function startJaeger(): Promise<Jaeger> {
  const dir = await tempDir('quire-jaeger-');
  const [otlp, query, queryGrpc] = [await freePort(), await freePort(), await freePort()];
  const config = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 1000
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:${query}
    grpc:
      endpoint: 127.0.0.1:${queryGrpc}
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlp}
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
  const file = path.join(dir, 'jaeger.yaml');
  await fs.writeFile(file, config);
  const child = spawn(JAEGER_BIN, ['--config', file], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.once('error', (err) => (stderr += `\n${String(err)} (run infra/setup.sh --jaeger)`));
  stopAtSuiteEnd(child);
  const base = `http://127.0.0.1:${query}`;
  const otlpUrl = `http://127.0.0.1:${otlp}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Ready once the query API answers and the receiver takes an (empty) export.
    const queried = await fetch(`${base}/api/services`).then((r) => r.ok, () => false);
    const received = queried && (await fetch(`${otlpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.ok, () => false));
    if (received) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`jaeger did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    otlpUrl,
    async trace(traceId) {
      const res = await fetch(`${base}/api/traces/${traceId}`);
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`jaeger query answered ${res.status}: ${await res.text()}`);
      const body: { data: JaegerTrace[] } = JSON.parse(await res.text());
      return body.data[0];
    },
  };
}
