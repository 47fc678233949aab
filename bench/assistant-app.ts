import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { createApp } from '../api/app.js';
import { assistantRouter, configuredAnswering, createAnswerService, meteredAnswerer } from '../api/assistant/index.js';
import { createJobEventLog, createJobStore, pollingJobWakeups } from '../core/jobs/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { createAnalyticsStore } from '../core/analytics/index.js';
import { createAutomationStore } from '../core/automations/index.js';
import { createThreadStore } from '../core/threads/index.js';
import { createWebhookStore } from '../core/webhooks/index.js';
import type { ApiServices } from '../api/services.js';
import { loadConfig, type Config } from '../core/config.js';
import { Limiter } from '../core/limits/index.js';
import { AnalyticsRecorder } from '../core/analytics/index.js';
import { createLogger } from '../core/logger.js';
import { EmbeddedDocIndex, observedDocIndex } from '../core/retrieval/index.js';
import { createTenantStore } from '../core/tenants/index.js';
import { SITE } from '../test/integration/assistant/site.js';
import { createMetrics, type QuireMetrics } from '../core/telemetry/index.js';

export interface BenchAssistant {
  app: Koa;
  config: Config;
  /** An assistant key of the bench organisation, whose limits are out of reach. */
  key: string;
  cleanup(): Promise<void>;
}

/**
 * The assistant app on the embedded defaults in a fresh data directory,
 * answering through the model at `baseUrl`: domain `docs` holds the test
 * site. The benches serve it their own way (bare listener or the API's HTTP
 * server).
 */
export async function benchAssistant(
  baseUrl: string,
  env: Record<string, string | undefined> = {},
  metrics: QuireMetrics = createMetrics({ orgLabel: false }),
): Promise<BenchAssistant> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
  // The bench model only streams answers: no query rewrite or model-driven searches unless `env` asks.
  const oneRequestPerAnswer = { QUIRE_ASSISTANT_QUERY_REWRITE: 'false', QUIRE_ASSISTANT_MAX_SEARCHES: '0' };
  const config = loadConfig({ ...oneRequestPerAnswer, ...env, QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUIRE_MODEL: 'bench', QUIRE_MODEL_BASE_URL: baseUrl });
  const database = await openMigratedDatabase(config.database);
  const tenants = createTenantStore(database);
  await tenants.addOrg('bench', { assistantPerKeyPerMonth: 1e9, assistantPerOrgPerHour: 1e9, assistantPerIpPerDay: 1e9 });
  const key = (await tenants.createKey('bench', 'assistant')).secret;
  await tenants.putDomain({ id: 'docs', orgId: 'bench', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
  const embedded = new EmbeddedDocIndex(path.join(dataDir, 'index'));
  await embedded.applyChanges('docs', { upserts: SITE, removals: [] });
  const docIndex = observedDocIndex(embedded, metrics.retrieval);
  const logger = createLogger('silent', 'bench');
  // As the API builds them: threads and analytics in the data folder, the recorder writing in the background.
  const analytics = new AnalyticsRecorder({ store: createAnalyticsStore(database), logger, retentionDays: config.retention.analyticsDays });
  analytics.start();
  const threads = createThreadStore(database, { retentionDays: config.retention.threadDays });
  const answering = configuredAnswering(config);
  const answers = createAnswerService({
    docIndex,
    threads,
    recorder: analytics,
    answerer: meteredAnswerer(answering.answerer, metrics.assistant),
    rewriter: answering.rewriter,
    promptTokens: config.assistant.promptTokens,
    searchTimeoutMs: config.assistant.searchTimeoutMs,
    logger,
  });
  const services: ApiServices = {
    config,
    logger,
    metrics,
    database,
    jobs: createJobStore(database),
    events: createJobEventLog(database, pollingJobWakeups(database)),
    tenants,
    threads: createThreadStore(database, { retentionDays: config.retention.threadDays }),
    analyticsStore: createAnalyticsStore(database),
    webhooks: createWebhookStore(database),
    automations: createAutomationStore(database),
    limiter: new Limiter({ onStoreError: 'open', metrics: metrics.limits }),
    temporal: undefined as never, // the assistant never touches Temporal
    redis: undefined,
    probes: {},
    docIndex,
    analytics,
    answers,
  };
  const app = createApp(services, [assistantRouter]);
  return {
    app,
    config,
    key,
    cleanup: async () => {
      await analytics.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The scripted model (`model-process.ts`) in a child process, so its CPU is
 * not the server's: `args` are its positional settings. Resolves with its
 * base URL once it prints it.
 */
export async function startModelProcess(args: readonly (string | number)[]): Promise<{ baseUrl: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'model-process.ts'), ...args.map(String)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`model process exited with ${code}`)));
  });
  return { baseUrl, stop: () => void child.kill('SIGTERM') };
}
