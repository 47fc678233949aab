/**
 * Assistant speed on the embedded defaults (file tenants and threads, memory
 * limiter, embedded index), the scripted model streaming 200 tokens with no
 * delay from its own process. Beside it, in the same run, a bare Koa route
 * streams the same bytes: the ratio says what the assistant's own work costs.
 * A third route only relays the model's stream (no key, limits, search,
 * prompt or thread): the floor for any server that calls the model itself.
 *
 *   npm run bench:assistant   (BENCH_REQUESTS, BENCH_CONCURRENCY, BENCH_OPEN_STREAMS change the load)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Koa from 'koa';
import { createApp } from '../api/app.js';
import { assistantRouter } from '../api/assistant/index.js';
import { keepAliveAgents, streamChatCompletion } from '../api/assistant/chat-completions-client.js';
import { eventData, pieceOf } from '../api/assistant/completion-stream.js';
import { UiMessageStreamWriter } from '../api/assistant/ui-message-stream.js';
import type { ApiServices } from '../api/services.js';
import { loadConfig } from '../core/config.js';
import { Limiter } from '../core/limits/index.js';
import { createLogger } from '../core/logger.js';
import { EmbeddedDocIndex } from '../core/retrieval/index.js';
import { openTenantStore } from '../core/tenants/index.js';
import { SITE } from '../test/integration/assistant/site.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const OPEN_STREAMS = Number(process.env.BENCH_OPEN_STREAMS ?? 200);
const ROUTE = '/discovery/v2/assistant/docs/message';
const ANSWER = Array.from({ length: 200 }, (_, i) => `tok${i}`).join(' ');
const BODY = JSON.stringify({ fp: 'bench', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I install the CLI?' }] }] });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const agent = new http.Agent({ keepAlive: true });

/** The scripted model in a child process; resolves with its base URL. */
async function modelProcess(tokens: number, delayMs: number): Promise<{ baseUrl: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'model-process.ts'), String(tokens), String(delayMs)], {
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

async function listen(handler: http.RequestListener): Promise<{ port: number; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: (address satisfies AddressInfo).port, server };
}

interface Reply {
  ttfb: number;
  status: number;
  text: string;
}

/** One POST; `onFirstByte` fires with the first body bytes. */
function post(port: number, key: string, onFirstByte?: () => void): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(BODY) };
    const req = http.request({ port, host: '127.0.0.1', path: ROUTE, method: 'POST', agent, headers }, (res) => {
      let ttfb = 0;
      let text = '';
      res.on('data', (c: Buffer) => {
        if (!ttfb) {
          ttfb = performance.now() - started;
          onFirstByte?.();
        }
        text += c.toString();
      });
      res.on('end', () => resolve({ ttfb, status: res.statusCode ?? 0, text }));
      res.on('close', () => {
        if (!res.complete) resolve({ ttfb, status: 0, text });
      });
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

async function load(port: number, key: string, n: number, concurrency: number) {
  let next = 0;
  let failures = 0;
  const ttfbs: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        const r = await post(port, key);
        if (r.status !== 200 || !r.text.endsWith('data: [DONE]\n\n')) failures++;
        ttfbs.push(r.ttfb);
      }
    }),
  );
  return { rps: n / ((performance.now() - started) / 1000), ttfbs: ttfbs.sort((a, b) => a - b), failures };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** An assistant on the embedded defaults, answering through the model at `baseUrl`. */
async function assistantServer(baseUrl: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QUIRE_MODEL: 'bench', QUIRE_MODEL_BASE_URL: baseUrl });
  const tenants = openTenantStore(config.dataDir, undefined);
  await tenants.addOrg('bench', { assistantPerKeyPerMonth: 1e9, assistantPerOrgPerHour: 1e9, assistantPerIpPerDay: 1e9 });
  const key = (await tenants.createKey('bench', 'assistant')).secret;
  await tenants.putDomain({ id: 'docs', orgId: 'bench', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
  const docIndex = new EmbeddedDocIndex(path.join(dataDir, 'index'));
  await docIndex.applyChanges('docs', { upserts: SITE, removals: [] });
  const services: ApiServices = {
    config,
    logger: createLogger('silent', 'bench'),
    tenants,
    limiter: new Limiter({ onStoreError: 'open' }),
    temporal: undefined as never, // the assistant never touches Temporal
    redis: undefined,
    probes: {},
  };
  const served = await listen(createApp(services, [(s) => assistantRouter(s, { docIndex })]).callback());
  return { ...served, key, cleanup: () => fs.rm(dataDir, { recursive: true, force: true }) };
}

/** A bare Koa route that relays the model's answer as UI message stream text: no key, limits, search, prompt or thread. */
function relayRoute(baseUrl: string) {
  const agents = keepAliveAgents();
  const app = new Koa();
  app.use(async (ctx) => {
    const out = new PassThrough();
    const writer = new UiMessageStreamWriter(out, { messageId: 'msg_1', threadId: 'thread_1' });
    const signal = new AbortController().signal;
    const res = await streamChatCompletion({ baseUrl, apiKey: undefined, name: 'bench' }, [{ role: 'user', content: 'hi' }], signal, agents);
    ctx.set(writer.headers);
    ctx.body = out;
    writer.start();
    void (async () => {
      for await (const batch of eventData(res.iterator({ destroyOnReturn: false }))) {
        const text = batch.data.map((d) => pieceOf(JSON.parse(d)).text ?? '').join('');
        if (text) writer.text(text);
      }
      res.resume();
      writer.endText();
      writer.finish();
      out.end();
    })();
  });
  return listen(app.callback());
}

async function main() {
  const fastModel = await modelProcess(200, 0);
  const slowModel = await modelProcess(200, 60_000);
  const assistant = await assistantServer(fastModel.baseUrl);
  const held = await assistantServer(slowModel.baseUrl);

  // Bare routes replay answer bytes event by event from a Koa app with no middleware: the assistant's own bytes for
  // this burst (tokens that arrive together go out as one delta), and the same answer one event per token.
  const actual = (await post(assistant.port, assistant.key)).text.split(/(?<=\n\n)/);
  const perToken: string[] = [];
  const writer = new UiMessageStreamWriter(new Writable({ write: (c: Buffer, _e, done) => void (perToken.push(c.toString()), done()) }), {
    messageId: 'msg_1',
    threadId: 'thread_1',
  });
  writer.start();
  for (const token of ANSWER.match(/\s*\S+/g) ?? []) writer.text(token);
  writer.endText();
  writer.finish();
  const bareRoute = (events: string[]) => {
    const app = new Koa();
    app.use((ctx) => {
      const out = new PassThrough();
      ctx.set('content-type', 'text/event-stream');
      ctx.body = out;
      setImmediate(() => {
        for (const e of events) out.write(e);
        out.end();
      });
    });
    return listen(app.callback());
  };
  const bare = await bareRoute(actual);
  const bareTokens = await bareRoute(perToken);
  const relay = await relayRoute(fastModel.baseUrl);

  await load(assistant.port, assistant.key, 300, CONCURRENCY); // warm-up
  await load(bare.port, assistant.key, 300, CONCURRENCY);
  await load(bareTokens.port, assistant.key, 300, CONCURRENCY);
  await load(relay.port, assistant.key, 300, CONCURRENCY);
  const b = await load(bare.port, assistant.key, REQUESTS, CONCURRENCY);
  const bt = await load(bareTokens.port, assistant.key, REQUESTS, CONCURRENCY);
  const r = await load(relay.port, assistant.key, REQUESTS, CONCURRENCY);
  const a = await load(assistant.port, assistant.key, REQUESTS, CONCURRENCY);
  // Time to first byte without queueing, one request at a time: the first chunk goes out before the model is called.
  const solo = await load(assistant.port, assistant.key, 300, 1);

  // Memory per open stream: streams held open by a model that sends one chunk a minute.
  gc();
  const before = process.memoryUsage();
  let opened = 0;
  const open = Array.from({ length: OPEN_STREAMS }, () => post(held.port, held.key, () => opened++).catch(() => undefined));
  while (opened < OPEN_STREAMS) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 500)); // the model requests are under way
  gc();
  const during = process.memoryUsage();
  const perStream = (x: 'heapUsed' | 'rss' | 'external') => `${((during[x] - before[x]) / OPEN_STREAMS / 1024).toFixed(1)} KiB`;

  console.log(`assistant bench: ${REQUESTS} requests, ${CONCURRENCY} concurrent clients, model streams 200 tokens with no delay (own process)`);
  console.log(`  bare Koa route, the assistant's bytes (${actual.length} events)  ${b.rps.toFixed(0)} req/s  (failures ${b.failures})`);
  console.log(`  bare Koa route, one event per token (${perToken.length} events)  ${bt.rps.toFixed(0)} req/s  (failures ${bt.failures})`);
  console.log(`  bare Koa route relaying the model's stream (no key, limits, search, thread)  ${r.rps.toFixed(0)} req/s  (failures ${r.failures})`);
  console.log(`  assistant v2      ${a.rps.toFixed(0)} req/s  (failures ${a.failures})`);
  console.log(`  throughput ratio  ${(a.rps / r.rps).toFixed(2)} vs the bare route streaming the same bytes from the same model (target >= 0.5)`);
  console.log(`                    ${(a.rps / b.rps).toFixed(2)} vs replayed bytes with no model call, ${(a.rps / bt.rps).toFixed(2)} vs replayed per-token events; the relay alone: ${(r.rps / b.rps).toFixed(2)} and ${(r.rps / bt.rps).toFixed(2)}`);
  console.log(`  TTFB, one at a time:    median ${ms(pct(solo.ttfbs, 50))}, p99 ${ms(pct(solo.ttfbs, 99))}  (targets <= 5 ms, <= 20 ms)`);
  console.log(`  TTFB, ${CONCURRENCY} clients:       median ${ms(pct(a.ttfbs, 50))}, p99 ${ms(pct(a.ttfbs, 99))}  (bare route: median ${ms(pct(b.ttfbs, 50))}, p99 ${ms(pct(b.ttfbs, 99))})`);
  console.log(`  memory per open stream (${OPEN_STREAMS} open; server and its client in this process): heap ${perStream('heapUsed')}, external ${perStream('external')}, rss ${perStream('rss')}`);

  agent.destroy();
  for (const s of [assistant.server, held.server, bare.server, bareTokens.server, relay.server]) s.closeAllConnections();
  await Promise.race([Promise.all(open), new Promise((r) => setTimeout(r, 200))]);
  fastModel.stop();
  slowModel.stop();
  await Promise.all([assistant.cleanup(), held.cleanup()]);
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
