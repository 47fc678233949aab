/**
 * A soak of the API in one process, to find what per-request state is never released: the
 * whole API (every router) behind its own HTTP server on the embedded defaults, the scripted
 * model in its own process, and a few clients that keep up a mix of traffic for BENCH_SOAK_SECONDS:
 * assistant answers on new and continuing threads, readers who leave mid-stream, job event
 * streams read to their end or abandoned, MCP and search calls, 404s and 401s with random ids and
 * keys, and answers from many addresses (X-Forwarded-For, behind QUIRE_TRUST_PROXY) of which
 * many are refused by the per-IP limit. Every BENCH_SOAK_INTERVAL seconds it forces a GC and
 * prints the heap used, the requests so far, and the sizes of the structures that hold
 * per-request state; at the end, the heap's slope after GC (a least-squares fit over the second
 * half, per 10,000 requests). A leak is a steady climb after GC.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc dist/benches/bench/soak.js
 *   BENCH_SOAK_SECONDS (300), BENCH_SOAK_INTERVAL (20), BENCH_SOAK_CLIENTS (4) and BENCH_SOAK_PAUSE_MS (10)
 *   change the run; BENCH_SOAK_SNAPSHOTS names a folder for a heap snapshot at each sample.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { createApp } from '../api/app.js';
import { apiServices } from '../api/build-services.js';
import { newJobRecord } from '../api/agent/create-job.js';
import { createHttpServer } from '../api/http-server.js';
import { loadConfig } from '../core/config.js';
import type { NewJobEvent } from '../core/jobs/index.js';
import { createLogger } from '../core/logger.js';
import { openPlatform, type Platform } from '../core/platform/index.js';
import { createMetrics } from '../core/telemetry/index.js';
import { SITE } from '../test/integration/assistant/site.js';
import { startModelProcess } from './assistant-app.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const INTERVAL = Number(process.env.BENCH_SOAK_INTERVAL ?? 20);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 4);
/** Each client's pause between its requests: the load stays at a few hundred requests a second. */
const PAUSE_MS = Number(process.env.BENCH_SOAK_PAUSE_MS ?? 10);

const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error('run with node --expose-gc');
const gc: () => void = exposed;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let port = 0;
let requests = 0;
const statuses = new Map<number, number>();

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request; `leaveAfter` bytes read, the client goes (destroys its socket). */
function request(method: string, route: string, options: { body?: unknown; headers?: Record<string, string>; leaveAfter?: number } = {}): Promise<Reply> {
  requests++;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: route, method, headers, agent: options.leaveAfter === undefined ? agent : false }, (res) => {
      let text = '';
      let over = false;
      const done = () => {
        if (over) return;
        over = true;
        statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      };
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (options.leaveAfter !== undefined && text.length >= options.leaveAfter) {
          req.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
    req.end(body);
  });
}

const question = (text: string, thread?: { id: string; key: string }) => ({
  fp: 'soak',
  ...(thread ? { threadId: thread.id, threadKey: thread.key } : {}),
  messages: [{ id: randomUUID(), role: 'user', parts: [{ type: 'text', text }] }],
});

const randomIp = () => `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

async function setUp(baseUrl: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-soak-'));
  const config = loadConfig({
    QUIRE_ASSISTANT_QUERY_REWRITE: 'false',
    QUIRE_ASSISTANT_MAX_SEARCHES: '0',
    QUIRE_TRUST_PROXY: 'true',
    ...process.env,
    QUIRE_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    QUIRE_EMBEDDER: 'none',
    QUIRE_MODEL: 'bench',
    QUIRE_MODEL_BASE_URL: baseUrl,
  });
  const platform = await openPlatform(config, { logger: createLogger('silent', 'soak'), metrics: createMetrics({ orgLabel: false }), env: {}, temporal: 'client' });
  platform.analytics.start();
  const { tenants } = platform;
  // Three answers a day per address: most of the many addresses are refused by their third or fourth question.
  await tenants.addOrg('soak', { assistantPerKeyPerMonth: 1e9, assistantPerOrgPerHour: 1e9, assistantPerIpPerDay: 3 });
  const assistantKey = (await tenants.createKey('soak', 'assistant')).secret;
  const adminKey = (await tenants.createKey('soak', 'admin')).secret;
  await tenants.putDomain({ id: 'docs', orgId: 'soak', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
  await tenants.putProject({ id: 'proj', orgId: 'soak', repository: 'https://example.com/docs.git', branch: 'main', docsPath: '', forge: 'github', forgeTokenEnv: 'GITHUB_TOKEN', allowedModels: [] });
  await platform.docIndex.applyChanges('docs', { upserts: SITE, removals: [] });
  const server = createHttpServer(createApp(apiServices(platform)), config.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
  return { platform, server, dataDir, assistantKey, adminKey };
}

/** A job that stays active, and one that is done, for the event streams. */
async function jobs(platform: Platform) {
  const event = (jobId: string, key: string, type: NewJobEvent['type']): NewJobEvent => ({ key, type, time: new Date().toISOString(), jobId, projectId: 'proj', data: {} });
  const active = newJobRecord({ projectId: 'proj', repository: 'https://example.com/docs.git', ref: 'main', model: 'bench' });
  await platform.jobs.create(active);
  await platform.events.record(active, [event(active.id, 'turn:1:started', 'turn.started')]);
  const done = newJobRecord({ projectId: 'proj', repository: 'https://example.com/docs.git', ref: 'main', model: 'bench' });
  await platform.jobs.create(done);
  await platform.events.record({ ...done, status: 'completed', turns: 1, revision: 1 }, [event(done.id, 'turn:1:started', 'turn.started'), event(done.id, 'turn:1:completed', 'job.completed')]);
  let n = 1;
  // The active job's log grows now and then, as a running turn's does.
  const writer = setInterval(() => void platform.events.append(event(active.id, `tool:${++n}`, 'turn.started')).catch(() => undefined), 500);
  return { active: active.id, done: done.id, stop: () => clearInterval(writer) };
}

type Step = () => Promise<unknown>;

async function main() {
  const model = await startModelProcess([20, 1, 1]);
  const { platform, server, dataDir, assistantKey, adminKey } = await setUp(model.baseUrl);
  const job = await jobs(platform);
  const asAssistant = { authorization: `Bearer ${assistantKey}` };
  const asAdmin = { authorization: `Bearer ${adminKey}` };
  const threads: Array<{ id: string; key: string }> = [];
  const ask = '/discovery/v2/assistant/docs/message';

  const steps: Array<[number, Step]> = [
    // A new thread, from a fresh address; its thread is kept to continue.
    [4, async () => {
      const reply = await request('POST', ask, { body: question('How do I install the CLI?'), headers: { ...asAssistant, 'x-forwarded-for': randomIp() } });
      const id = reply.headers['x-thread-id'];
      const key = reply.headers['x-thread-key'];
      if (typeof id === 'string' && typeof key === 'string') threads.push({ id, key });
      if (threads.length > 200) threads.shift();
    }],
    // A continuing thread.
    [2, async () => {
      const thread = threads[Math.floor(Math.random() * threads.length)];
      await request('POST', ask, { body: question('And on Windows?', thread), headers: { ...asAssistant, 'x-forwarded-for': randomIp() } });
    }],
    // A reader who leaves mid-answer.
    [2, () => request('POST', ask, { body: question('How do I configure it?'), headers: { ...asAssistant, 'x-forwarded-for': randomIp() }, leaveAfter: 200 })],
    // A few addresses that keep asking: refused by the per-IP limit.
    [3, () => request('POST', ask, { body: question('Rate?'), headers: { ...asAssistant, 'x-forwarded-for': `192.168.0.${Math.floor(Math.random() * 8)}` } })],
    // Job event streams: one abandoned while it waits, one read to the closing event.
    [2, () => request('GET', `/v2/agent/proj/job/${job.active}/events`, { headers: asAdmin, leaveAfter: 10 })],
    [1, () => request('GET', `/v2/agent/proj/job/${job.done}/events`, { headers: asAdmin })],
    [2, () => request('POST', '/discovery/v1/search/docs', { body: { query: 'install cli', pageSize: 5 }, headers: { ...asAssistant, 'x-forwarded-for': randomIp() } })],
    [2, () => request('POST', '/mcp/docs', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'install' } } },
      headers: { ...asAssistant, accept: 'application/json, text/event-stream', 'x-forwarded-for': randomIp() },
    })],
    [1, () => request('GET', '/discovery/v1/llms/docs.txt', { headers: { 'x-forwarded-for': randomIp() } })],
    // 404s and 401s with random ids and keys.
    [2, () => request('GET', `/v2/agent/proj/job/${randomUUID()}`, { headers: asAdmin })],
    [1, () => request('GET', `/v2/agent/${randomUUID()}/job/${randomUUID()}/events`, { headers: asAdmin })],
    [2, () => request('POST', `/discovery/v2/assistant/${randomUUID()}/message`, { body: question('x'), headers: asAssistant })],
    [2, () => request('POST', ask, { body: question('x'), headers: { authorization: `Bearer qk_${randomUUID().replaceAll('-', '')}` } })],
    [1, () => request('GET', `/v1/admin/threads/${randomUUID()}`, { headers: asAdmin })],
    [1, () => request('GET', `/discovery/v1/llms/${randomUUID()}.txt`)],
  ];
  const total = steps.reduce((n, [w]) => n + w, 0);
  const pick = (): Step => {
    let r = Math.random() * total;
    for (const [w, step] of steps) if ((r -= w) < 0) return step;
    return steps[0]![1];
  };

  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (Date.now() < deadline) {
      await pick()();
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  });

  const samples: Array<{ requests: number; heap: number }> = [];
  const limiter = platform.limiter as unknown as { memories: Map<string, { limiter: { _memoryStorage: { _storage: Map<string, unknown> } } }> };
  const completions = platform.completions as unknown as Record<string, Map<unknown, unknown>>;
  const sample = async () => {
    gc();
    await new Promise((r) => setImmediate(r));
    gc();
    const heap = process.memoryUsage().heapUsed;
    if (process.env.BENCH_SOAK_SNAPSHOTS) v8.writeHeapSnapshot(path.join(process.env.BENCH_SOAK_SNAPSHOTS, `soak-${samples.length}.heapsnapshot`));
    samples.push({ requests, heap });
    const limiterKeys = [...limiter.memories.values()].reduce((n, m) => n + m.limiter._memoryStorage._storage.size, 0);
    const series = (await platform.metrics.registry.getMetricsAsJSON()).reduce((n, m) => n + m.values.length, 0);
    const resources = process.getActiveResourcesInfo();
    const count = (kind: string) => resources.filter((r) => r === kind).length;
    const connections = await new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
    // With Redis: the job channels this process listens on (one per job a stream waits on).
    const channels = platform.redis.configured ? ((await platform.redis.client.pubsub('CHANNELS', 'quire:job-events:*')) as string[]).length : 0;
    console.log(
      [
        `t=${Math.round((Date.now() - started) / 1000)}s`,
        `requests=${requests}`,
        `heapMB=${(heap / 1e6).toFixed(2)}`,
        `limiterKeys=${limiterKeys}`,
        `lastBatchOf=${completions.lastBatchOf!.size}`,
        `settledWaiters=${completions.settledWaiters!.size}`,
        `storedWaiters=${completions.storedWaiters!.size}`,
        `series=${series}`,
        `timers=${count('Timeout')}`,
        `connections=${connections}`,
        `jobChannels=${channels}`,
      ].join(' '),
    );
  };
  await sample();
  const ticker = setInterval(() => void sample(), INTERVAL * 1000);
  await Promise.all(clients);
  clearInterval(ticker);
  await new Promise((r) => setTimeout(r, 2000));
  await sample();

  const half = samples.slice(Math.floor(samples.length / 2));
  const mx = half.reduce((s, p) => s + p.requests, 0) / half.length;
  const my = half.reduce((s, p) => s + p.heap, 0) / half.length;
  const slope = half.reduce((s, p) => s + (p.requests - mx) * (p.heap - my), 0) / Math.max(1, half.reduce((s, p) => s + (p.requests - mx) ** 2, 0));
  console.log(`statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  console.log(`heap slope after GC (second half): ${((slope * 10_000) / 1e6).toFixed(3)} MB per 10,000 requests`);

  job.stop();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await platform.close();
  model.stop();
  agent.destroy();
  await fs.rm(dataDir, { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
