import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import type { ActivityServices } from '../../activities/index.js';
import { createHttpServer } from '../../api/http-server.js';
import type { ApiServices } from '../../api/services.js';
import { loadConfig, type Config } from '../../core/config.js';
import { Limiter } from '../../core/limits/index.js';
import { createLogger } from '../../core/logger.js';
import { connectRedis } from '../../core/redis.js';
import { createMetrics } from '../../core/telemetry/index.js';
import { openTenantStore } from '../../core/tenants/index.js';
import { onSuiteEnd } from './teardown.js';
import { temporalEnv } from './temporal.js';

export async function tempDir(prefix = 'quire-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  onSuiteEnd(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A parsed configuration over a fresh data directory, plus any variables the test sets. */
export async function testConfig(env: Record<string, string> = {}): Promise<Config> {
  const dataDir = await tempDir();
  return loadConfig({ QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
}

/**
 * The API's services on real engines: the suite's Temporal dev server, a file
 * tenant store in a temp folder (or Redis when `redisUrl` is given).
 */
export async function testServices(
  opts: { env?: Record<string, string>; taskQueue?: string; withTemporal?: boolean } = {},
): Promise<ApiServices & ActivityServices> {
  const config = await testConfig({
    ...(opts.taskQueue ? { TEMPORAL_TASK_QUEUE: opts.taskQueue } : {}),
    ...opts.env,
  });
  const logger = createLogger('silent', 'test');
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  if (redis) onSuiteEnd(async () => redis.disconnect());
  const tenants = openTenantStore(config.dataDir, redis);
  // A registry of the test's own, as each process owns one.
  const metrics = createMetrics({ orgLabel: config.metrics.orgLabel });
  const limiter = new Limiter({ redis, onStoreError: config.rateLimitOnStoreError, metrics: metrics.limits });
  const temporal = opts.withTemporal === false ? undefined : (await temporalEnv()).client;
  return {
    config,
    logger,
    metrics,
    tenants,
    limiter,
    redis,
    // Tests that never touch Temporal may skip it; a call would then fail loudly.
    temporal: temporal ?? (undefined as never),
    probes: { tenants: () => tenants.ping() },
  };
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves an app on a free loopback port (streams need a real socket), with the
 * API's own HTTP server: its deadlines (the defaults, or `limits`) and its answers to malformed requests.
 */
export async function serve(app: Koa, limits?: Config['http']): Promise<Served> {
  const server = createHttpServer(app, limits ?? loadConfig({}).http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  onSuiteEnd(close);
  return { url: `http://127.0.0.1:${port}`, close };
}

/** An organisation with one admin and one assistant key. */
export async function seedOrg(services: Pick<ApiServices, 'tenants'>, orgId = 'acme') {
  await services.tenants.addOrg(orgId);
  const admin = await services.tenants.createKey(orgId, 'admin');
  const assistant = await services.tenants.createKey(orgId, 'assistant');
  return { orgId, adminKey: admin.secret, assistantKey: assistant.secret, adminKeyId: admin.record.id };
}
