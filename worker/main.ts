import { tracing } from './instrumentation.js';
import net from 'node:net';
import path from 'node:path';
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { loadConfig } from '../core/config.js';
import { createLogger, secretValuesOf } from '../core/logger.js';
import { createMetrics, serveMetrics } from '../core/telemetry/index.js';
import { openPlatform } from '../core/platform/index.js';
import { checkReadiness, type Readiness } from '../core/platform/readiness.js';
import { temporalTarget } from '../core/temporal/connection.js';
import { registerSearchAttributes, SEARCH_ATTRIBUTE_SPECS } from '../core/temporal/search-attributes.js';
import { announceReady, runMain } from '../core/run-main.js';
import { createWorker } from './create-worker.js';
import { followPollSchedules } from './poll-schedules.js';
import { tendReconcileSchedules } from './reconcile-schedules.js';
import { temporalLogger } from './runtime-logger.js';

/** A free loopback port for the SDK runtime's own Prometheus endpoint, which only this process scrapes. */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Bounds (ms) of the SDK's schedule-to-start histograms around the alerts' thresholds (2 s for
 * workflow tasks, 30 s for activities): its default buckets jump from 1 s to 5 s and from 10 s to
 * 100 s, so a p95 read between them was a guess.
 */
const SCHEDULE_TO_START_MS = [50, 100, 250, 500, 1000, 1500, 2000, 3000, 5000, 10_000, 20_000, 30_000, 45_000, 60_000, 120_000, 300_000];
const SCHEDULE_TO_START_BUCKETS = {
  workflow_task_schedule_to_start_latency: SCHEDULE_TO_START_MS,
  activity_schedule_to_start_latency: SCHEDULE_TO_START_MS,
};

/** Worker process: connects to Temporal, runs the prebuilt workflow bundle, drains on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'quire-worker', undefined, secretValuesOf(process.env));
  // The SDK's worker metrics (task slots, poll latency, schedule-to-start) are served by its runtime on loopback, then appended to ours.
  const sdkMetrics = `127.0.0.1:${await freeLoopbackPort()}`;
  Runtime.install({
    logger: temporalLogger(logger),
    telemetryOptions: {
      // Core's own lines (the retries of a Temporal outage, say) go to the JSON logger above, with its
      // redaction; without `forward` the SDK writes them to stdout as coloured text.
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      metrics: { prometheus: { bindAddress: sdkMetrics, histogramBucketOverrides: SCHEDULE_TO_START_BUCKETS } },
    },
  });
  const metrics = createMetrics({ orgLabel: config.metrics.orgLabel });
  // Not ready until the worker polls; then ready while it runs and every engine it uses answers.
  const running: { check?: () => Promise<Readiness> } = {};
  const metricsListener = await serveMetrics({
    host: config.metrics.host,
    port: config.metrics.workerPort,
    portSetting: 'QUIRE_WORKER_METRICS_PORT',
    registry: metrics.registry,
    more: async () => (await fetch(`http://${sdkMetrics}/metrics`)).text(),
    readiness: async () => {
      if (!running.check) return { status: 503, body: { error: 'not ready: the worker is starting', code: 'unavailable' } };
      const { checks, down, degraded } = await running.check();
      if (down.length > 0) return { status: 503, body: { error: `not ready: ${down.join(', ')} unavailable`, code: 'unavailable', checks } };
      return { status: 200, body: degraded.length > 0 ? { status: 'degraded', degraded, checks } : { status: 'ok', checks } };
    },
  });
  const target = temporalTarget(config);
  const platform = await openPlatform(config, { logger, metrics, env: process.env, temporal: 'worker' });
  // The namespace this worker polls gets Quire's search attributes; where only its operator may add
  // them, the log says which (job creates are refused, 502, until they exist).
  await registerSearchAttributes(platform.workerConnection.operatorService, target.namespace).then(
    (added) => added.length > 0 && logger.info({ namespace: target.namespace, added }, 'search attributes registered'),
    // The reason alone: a gRPC error's metadata is bytes no reader needs.
    (err: unknown) =>
      logger.error(
        { reason: err instanceof Error ? err.message : String(err), namespace: target.namespace, register: SEARCH_ATTRIBUTE_SPECS },
        'cannot register the search attributes: add them to the namespace, or every job create is refused',
      ),
  );
  const worker = await createWorker({
    connection: platform.workerConnection,
    namespace: target.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: createActivities(platform),
    workflows: { bundlePath: path.resolve(__dirname, '..', 'workflow-bundle.js') },
    maxActivities: config.worker.maxActivities,
    shutdownGraceMs: config.worker.shutdownGraceMs,
    tracing,
  });
  // The schedule whose workflow fails the jobs whose run was stopped from outside (terminated in the
  // Temporal UI, timed out): each worker makes sure it is there, and deletes those of queues no
  // worker polls any more (their runs would only time out), in the background.
  const stopTending = tendReconcileSchedules(platform.temporal, config.temporal.taskQueue, logger);
  // The domains' poll schedules fire on the queue they were made for: after a move to this one, they follow.
  void followPollSchedules(platform.temporal, platform.tenants, config.temporal.taskQueue, logger);
  const polling = async () => {
    const state = worker.getState();
    if (state !== 'RUNNING') throw new Error(`worker ${state.toLowerCase()}`);
  };
  running.check = () => checkReadiness({ worker: polling, ...platform.probes }, config);
  logger.info({ taskQueue: config.temporal.taskQueue, address: target.address, metrics: metricsListener.url, tracing: tracing.enabled }, 'worker started');
  announceReady();
  // The SDK's runtime turns SIGINT/SIGTERM into a graceful shutdown; run() resolves once drained.
  await worker.run();
  stopTending();
  await platform.close();
  await metricsListener.close();
  await tracing.shutdown();
  logger.info('worker stopped');
}

if (require.main === module) runMain('quire-worker', main);
