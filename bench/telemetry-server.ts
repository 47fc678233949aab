/**
 * One side of the instrumentation benches, in a process of its own: its CPU is its own, and its
 * tracing is configured as an operator configures it, once at start from the OTEL_* variables
 * (`on`: tracing exported to OTEL_EXPORTER_OTLP_ENDPOINT and metrics recorded; `off`: neither).
 * Prints `{"port":…,"key":…}` once it listens.
 *
 *   tsx bench/telemetry-server.ts assistant on|off <model base URL>
 *   tsx bench/telemetry-server.ts agent on|off <model base URL> <Temporal address>
 */
// First, as in the API's entry point: tracing starts before the app's modules load (`off` leaves OTEL_* unset, so nothing is registered).
import { tracing } from '../api/instrumentation.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { createApp } from '../api/app.js';
import { apiServices } from '../api/build-services.js';
import { createLogger } from '../core/logger.js';
import { openPlatform } from '../core/platform/index.js';
import { createMetrics } from '../core/telemetry/index.js';
import { testConfig } from '../test/support/services.js';
import { benchAssistant } from './assistant-app.js';
import { silentMetrics } from './telemetry-toggle.js';

/** The API's job routes over a fresh data directory and the given Temporal server; jobs go to a queue no worker polls. */
async function jobsApp(modelUrl: string, temporalAddress: string, on: boolean): Promise<{ app: Koa; key: string }> {
  const modelEnv = { QUIRE_MODEL_BASE_URL: modelUrl, QUIRE_MODEL_API_KEY: 'sk-bench', QUIRE_MODEL: 'bench-model' };
  const config = await testConfig({ ...modelEnv, TEMPORAL_ADDRESS: temporalAddress, TEMPORAL_TASK_QUEUE: `bench-idle-${randomUUID()}` });
  const metrics = on ? createMetrics({ orgLabel: false }) : silentMetrics();
  const platform = await openPlatform(config, { logger: createLogger('silent', 'bench'), metrics, env: modelEnv, temporal: 'client' });
  platform.analytics.start();
  const services = apiServices(platform);
  await services.tenants.addOrg('bench', { agentCreatesPerHour: 1e9, agentMessagesPerHour: 1e9 });
  const key = (await services.tenants.createKey('bench', 'admin')).secret;
  await services.tenants.putProject({ id: 'bench', orgId: 'bench', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
  return { app: createApp(services), key };
}

async function main(): Promise<void> {
  const [kind, mode, modelUrl = '', temporalAddress = ''] = process.argv.slice(2);
  const on = mode === 'on';
  if (tracing.enabled !== on) throw new Error(`tracing ${tracing.enabled ? 'on' : 'off'} in the ${mode} server`);
  const { app, key } = kind === 'agent' ? await jobsApp(modelUrl, temporalAddress, on) : await benchAssistant(modelUrl, {}, on ? createMetrics({ orgLabel: false }) : silentMetrics());
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, key })}\n`);
  process.once('SIGTERM', () => void tracing.shutdown().finally(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
