import { tracing } from './instrumentation.js';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { createMetrics, serveMetrics } from '../core/telemetry/index.js';
import { temporalTarget, tlsOptions } from '../core/temporal/connection.js';
import { temporalClientInterceptors } from '../core/temporal/tracing.js';
import { announceReady, runMain } from '../core/run-main.js';
import { createWorker } from './create-worker.js';
import { temporalLogger } from './runtime-logger.js';
import { buildActivityServices } from './services.js';

/** A free loopback port for the SDK runtime's own Prometheus endpoint, which only this process scrapes. */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Worker process: connects to Temporal, runs the prebuilt workflow bundle, drains on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'quire-worker');
  // The SDK's worker metrics (task slots, poll latency, schedule-to-start) are served by its runtime on loopback, then appended to ours.
  const sdkMetrics = `127.0.0.1:${await freeLoopbackPort()}`;
  Runtime.install({
    logger: temporalLogger(logger),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) },
      metrics: { prometheus: { bindAddress: sdkMetrics } },
    },
  });
  const metrics = createMetrics({ orgLabel: config.metrics.orgLabel });
  const metricsListener = await serveMetrics({
    host: config.metrics.host,
    port: config.metrics.workerPort,
    registry: metrics.registry,
    more: async () => (await fetch(`http://${sdkMetrics}/metrics`)).text(),
  });
  const target = temporalTarget(config);
  const tls = await tlsOptions(target);
  const connection = await NativeConnection.connect({
    address: target.address,
    ...(tls ? { tls } : {}),
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
  }).catch((err: unknown) => {
    throw new Error(`cannot reach Temporal at ${target.address}: ${(err as Error).message}`, { cause: err });
  });
  // Automations start agent jobs from an activity: a client over the worker's own connection.
  const services = {
    ...(await buildActivityServices(config, logger, metrics, process.env)),
    temporal: new Client({ connection, namespace: target.namespace, interceptors: temporalClientInterceptors() }),
  };
  const worker = await createWorker({
    connection,
    namespace: target.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: createActivities(services),
    workflows: { bundlePath: path.resolve(__dirname, '..', 'workflow-bundle.js') },
    maxActivities: config.worker.maxActivities,
    shutdownGraceMs: config.worker.shutdownGraceMs,
    tracing,
  });
  logger.info({ taskQueue: config.temporal.taskQueue, address: target.address, metrics: metricsListener.url, tracing: tracing.enabled }, 'worker started');
  announceReady();
  // The SDK's runtime turns SIGINT/SIGTERM into a graceful shutdown; run() resolves once drained.
  await worker.run();
  services.redis?.disconnect();
  await connection.close();
  await metricsListener.close();
  await tracing.shutdown();
  logger.info('worker stopped');
}

if (require.main === module) runMain('quire-worker', main);
