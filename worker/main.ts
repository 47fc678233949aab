import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, makeTelemetryFilterString, DefaultLogger } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { temporalTarget, tlsOptions } from '../core/temporal/connection.js';
import { announceReady, runMain } from '../core/run-main.js';
import { createWorker } from './create-worker.js';
import { buildActivityServices } from './services.js';

/** Worker process: connects to Temporal, runs the prebuilt workflow bundle, drains on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'quire-worker');
  Runtime.install({
    logger: new DefaultLogger(config.logLevel === 'debug' || config.logLevel === 'trace' ? 'DEBUG' : 'WARN'),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) } },
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
  const services = { ...(await buildActivityServices(config, logger, process.env)), temporal: new Client({ connection, namespace: target.namespace }) };
  const worker = await createWorker({
    connection,
    namespace: target.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: createActivities(services),
    workflows: { bundlePath: path.resolve(__dirname, '..', 'workflow-bundle.js') },
    maxActivities: config.worker.maxActivities,
    shutdownGraceMs: config.worker.shutdownGraceMs,
  });
  logger.info({ taskQueue: config.temporal.taskQueue, address: target.address }, 'worker started');
  announceReady();
  // The SDK's runtime turns SIGINT/SIGTERM into a graceful shutdown; run() resolves once drained.
  await worker.run();
  services.redis?.disconnect();
  await connection.close();
  logger.info('worker stopped');
}

if (require.main === module) runMain('quire-worker', main);
