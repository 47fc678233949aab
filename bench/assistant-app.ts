import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { createApp } from '../api/app.js';
import { assistantRouter } from '../api/assistant/index.js';
import { requireKey } from '../api/auth.js';
import { UiMessageStreamWriter } from '../api/assistant/ui-message-stream.js';
import { apiServices } from '../api/build-services.js';
import { loadConfig, type Config } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { openPlatform } from '../core/platform/index.js';
import { createMetrics, type QuireMetrics } from '../core/telemetry/index.js';
import { SITE } from '../test/integration/assistant/site.js';
import { portPath, type StreamAnswer } from './client-paths.js';
import { siblingScript } from './sibling.js';

export interface BenchAssistant {
  app: Koa;
  /**
   * The relay's handler (see `relayApp`) on the assistant's v2 path behind the API's own HTTP
   * stack: the same app middleware (request id, metrics and trace context, error mapping, CORS,
   * JSON body) and the assistant key check, and nothing of the assistant's answering.
   */
  stackedRelay: Koa;
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
  // Keyword retrieval (no embedder), so the figures measure the assistant, not an embeddings server.
  // The bench model only streams answers: no query rewrite or model-driven searches unless `env` asks.
  const oneRequestPerAnswer = { QUIRE_ASSISTANT_QUERY_REWRITE: 'false', QUIRE_ASSISTANT_MAX_SEARCHES: '0' };
  const config = loadConfig({ ...oneRequestPerAnswer, ...env, QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUIRE_EMBEDDER: 'none', QUIRE_MODEL: 'bench', QUIRE_MODEL_BASE_URL: baseUrl });
  // As the API opens it: the recorder writes threads and analytics in the background; Temporal is never called.
  const platform = await openPlatform(config, { logger: createLogger('silent', 'bench'), metrics, env: {}, temporal: 'client' });
  platform.analytics.start();
  const { tenants } = platform;
  await tenants.addOrg('bench', { assistantPerKeyPerMonth: 1e9, assistantPerOrgPerHour: 1e9, assistantPerIpPerDay: 1e9 });
  const key = (await tenants.createKey('bench', 'assistant')).secret;
  await tenants.putDomain({ id: 'docs', orgId: 'bench', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
  await platform.docIndex.applyChanges('docs', { upserts: SITE, removals: [] });
  const services = apiServices(platform);
  const app = createApp(services, [assistantRouter]);
  const relay = relayHandler(portPath(baseUrl));
  const stackedRelay = createApp(services, [
    ({ tenants }) => new Router().post('/discovery/v2/assistant/:domain/message', requireKey(tenants, 'assistant'), relay),
  ]);
  return {
    app,
    stackedRelay,
    config,
    key,
    cleanup: async () => {
      await platform.close();
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
  const child = spawn(process.execPath, [...siblingScript('model-process'), ...args.map(String)], {
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

/**
 * The relay: a bare Koa app that streams the model's answer (read by `answer`) as UI message
 * stream text, with no key, limits, search, prompt or thread. The floor the assistant is measured against.
 */
export function relayApp(answer: StreamAnswer): Koa {
  return new Koa().use(relayHandler(answer));
}

/** The relay's one handler: streams the answer read by `answer` as UI message stream text. */
function relayHandler(answer: StreamAnswer): Middleware {
  return async (ctx) => {
    const out = new PassThrough();
    const writer = new UiMessageStreamWriter(out, { messageId: 'msg_1', threadId: 'thread_1' });
    const texts = answer();
    const first = await texts.next();
    ctx.set(writer.headers);
    ctx.body = out;
    writer.start();
    void (async () => {
      if (!first.done) writer.text(first.value);
      for await (const text of texts) writer.text(text);
      writer.endText();
      writer.finish();
      out.end();
    })();
  };
}
