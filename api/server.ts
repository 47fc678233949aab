import { tracing } from './instrumentation.js';
import { loadConfig } from '../core/config.js';
import { rootReason } from '../core/errors.js';
import { createLogger, secretValuesOf } from '../core/logger.js';
import { temporalTarget } from '../core/temporal/connection.js';
import { runMain } from '../core/run-main.js';
import { createMetrics, serveMetrics } from '../core/telemetry/index.js';
import { applySeedFile } from '../core/tenants/seed-file.js';
import { followSeed } from '../core/index-runs/index.js';
import { createApp } from './app.js';
import { openPlatform } from '../core/platform/index.js';
import { apiServices } from './build-services.js';
import { createHttpServer } from './http-server.js';

/** API process: loads configuration, connects clients, listens; closes cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'quire-api', undefined, secretValuesOf(process.env));
  const metrics = createMetrics({ orgLabel: config.metrics.orgLabel });
  const metricsListener = await serveMetrics({ host: config.metrics.host, port: config.metrics.apiPort, portSetting: 'QUIRE_METRICS_PORT', registry: metrics.registry });
  const platform = await openPlatform(config, { logger, metrics, env: process.env, temporal: 'client' });
  // Beside the analytics purge: every replica runs it, each step a bounded delete.
  platform.analytics.start();
  platform.jobRetention.start();
  const services = apiServices(platform);
  const seeded = config.seedFile ? await applySeedFile(config.seedFile, services.tenants, services.webhooks) : { domains: [], languageChanges: [] };
  // In the background, as the API starts without Temporal: a seeded domain's polling, and the index run of one whose language changed, follow once it answers, or on the next start.
  void followSeed(platform.temporal, config.temporal.taskQueue, services.tenants, seeded).catch((err: unknown) =>
    logger.warn(
      { err: rootReason(err) },
      "the seed file's poll schedules or language changes could not be followed in Temporal: they are at the next start (a domain keeps its former language until then)",
    ),
  );
  const server = createHttpServer(createApp(services), config.http);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${config.port} is already in use; stop the other process or set PORT`)
          : new Error(`cannot listen on ${config.host}:${config.port} (HOST, PORT): ${err.message}`, { cause: err }),
      ),
    );
    server.listen(config.port, config.host, resolve);
  });
  logger.info({ url: `http://${config.host}:${config.port}`, metrics: metricsListener.url, tracing: tracing.enabled }, 'api listening');
  // The API starts without Temporal (reads and the assistant need none); an operator is told at once, not only by /readyz.
  void platform.probes.temporal?.().catch((err: unknown) =>
    logger.warn({ address: temporalTarget(config).address, err: rootReason(err) }, 'Temporal does not answer at TEMPORAL_ADDRESS: job and indexing routes answer 503 until it does'),
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      logger.info('api stopping');
      server.close(() => resolve());
      server.closeIdleConnections();
      // Answers still streaming finish within the grace; then their connections close (QUIRE_API_SHUTDOWN_GRACE_MS).
      setTimeout(() => server.closeAllConnections(), config.http.shutdownGraceMs).unref();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await platform.close();
  await metricsListener.close();
  await tracing.shutdown();
}

if (require.main === module) runMain('quire-api', main);
