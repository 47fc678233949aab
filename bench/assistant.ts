/**
 * Assistant speed on the embedded defaults (file tenants and threads, memory
 * limiter, embedded index), the scripted model streaming 200 tokens with no
 * delay from its own process. Beside it, in the same run, a bare Koa route
 * streams the same bytes: the ratio says what the assistant's own work costs.
 * A third route only relays the model's stream (no key, limits, search,
 * prompt or thread): the floor for any server that calls the model itself.
 * Then the same relay reads the model three ways (the model port, the
 * `openai` client's stream, plain `node:http`) from the instant model and
 * from a realistic one (first token after 300 ms, then 30 tokens/s), with the
 * CPU each answer cost this process.
 *
 * The targets are the assistant's throughput at least 0.9 of the relay's and
 * its CPU per answer at most 1.25 times the relay's, measured in alternating
 * rounds (the median of BENCH_ROUNDS) so a neighbour's load hits both alike.
 * A third route in the same rounds puts the relay's handler behind the API's
 * own HTTP stack (its app middleware and the assistant key check), with no
 * answering: it splits the gap into what the stack costs any route and what
 * the assistant's own work costs beyond it.
 * Beside them, each side's CPU on the main thread and on the process's other
 * threads (the completion writer's, V8's garbage-collection helpers).
 *
 *   npm run bench:assistant   (BENCH_REQUESTS, BENCH_CONCURRENCY, BENCH_ROUNDS, BENCH_OPEN_STREAMS,
 *                              BENCH_REALISTIC_REQUESTS, BENCH_REALISTIC_CONCURRENCY change the load;
 *                              BENCH_ONLY_RATIOS=1 stops after the two ratios)
 *
 * With `--telemetry`, only the cost of instrumentation: the same assistant with metrics and
 * tracing (OTLP/HTTP protobuf to a local receiver) on, against both off, each in a server process
 * of its own, both loaded at the same time in each of BENCH_ROUNDS rounds of one run (default 8),
 * each side starting first in half of them; the figures are the medians over pairs of rounds of
 * each pair's ratios of throughput and of each server's CPU per answer.
 *
 *   npm run bench:assistant -- --telemetry   (BENCH_REQUESTS, BENCH_CONCURRENCY, BENCH_ROUNDS)
 */
// First, as in the API's entry point: tracing (off unless OTEL_* configure it) starts before the app's modules load.
import '../api/instrumentation.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Koa from 'koa';
import { UiMessageStreamWriter } from '../api/assistant/ui-message-stream.js';
import { benchAssistant, relayApp, startModelProcess } from './assistant-app.js';
import { CLIENT_PATHS, portPath, type StreamAnswer } from './client-paths.js';
import { compareOnOff, startOtlpSink, startTelemetryServer, type TelemetryServer } from './telemetry-toggle.js';
import { threadCpuMs } from './thread-cpu.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPEN_STREAMS = Number(process.env.BENCH_OPEN_STREAMS ?? 200);
const REALISTIC_REQUESTS = Number(process.env.BENCH_REALISTIC_REQUESTS ?? 300);
const REALISTIC_CONCURRENCY = Number(process.env.BENCH_REALISTIC_CONCURRENCY ?? 100);
/** A realistic provider: the first token after 300 ms, then 30 tokens a second. */
const REALISTIC = { firstTokenMs: 300, tokenMs: 1000 / 30 };
const ROUTE = '/discovery/v2/assistant/docs/message';
const ANSWER = Array.from({ length: 200 }, (_, i) => `tok${i}`).join(' ');
const BODY = JSON.stringify({ fp: 'bench', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I install the CLI?' }] }] });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const agent = new http.Agent({ keepAlive: true });

/** The scripted model in a child process; resolves with its base URL. */
function modelProcess(tokens: number, delayMs: number, firstTokenMs = delayMs) {
  return startModelProcess([tokens, delayMs, firstTokenMs]);
}

async function listen(handler: http.RequestListener): Promise<{ port: number; server: http.Server }> {
  const server = http.createServer(handler);
  // Longer than any pause between phases, so the load client never reuses a connection the server is closing.
  server.keepAliveTimeout = 120_000;
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
  return new Promise((resolve) => {
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
    // A broken connection is a failed request in the figures, not the end of the run.
    req.on('error', (err) => resolve({ ttfb: 0, status: 0, text: String(err) }));
    req.end(BODY);
  });
}

async function load(port: number, key: string, n: number, concurrency: number) {
  let next = 0;
  let failures = 0;
  const ttfbs: number[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  const mainBefore = threadCpuMs();
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
  const spent = process.cpuUsage(cpu);
  // CPU of this process (the server under test and its load client) per answer, in milliseconds.
  const cpuMs = (spent.user + spent.system) / 1000 / n;
  // The main thread's share (server and client), where it can be read: the rest is other threads' work.
  const mainAfter = threadCpuMs();
  const mainCpuMs = mainBefore === undefined || mainAfter === undefined ? undefined : (mainAfter - mainBefore) / n;
  return { rps: n / ((performance.now() - started) / 1000), ttfbs: ttfbs.sort((a, b) => a - b), failures, cpuMs, mainCpuMs };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** An assistant on the embedded defaults, answering through the model at `baseUrl`. */
async function assistantServer(baseUrl: string) {
  const { app, stackedRelay, key, cleanup } = await benchAssistant(baseUrl);
  const served = await listen(app.callback());
  const stacked = await listen(stackedRelay.callback());
  return {
    ...served,
    key,
    stacked,
    cleanup: async () => {
      stacked.server.closeAllConnections();
      stacked.server.close();
      await cleanup();
    },
  };
}

/** The relay app (see `relayApp`) on its own listener. */
function relayRoute(answer: StreamAnswer) {
  return listen(relayApp(answer).callback());
}

/** The relay over each client path, from the instant model and from the realistic one. */
async function compareClientPaths(instantUrl: string, realisticUrl: string) {
  const rows: string[] = [];
  for (const [label, baseUrl, n, concurrency] of [
    ['instant model', instantUrl, REQUESTS, CONCURRENCY],
    ['realistic model', realisticUrl, REALISTIC_REQUESTS, REALISTIC_CONCURRENCY],
  ] as const) {
    for (const [name, path] of Object.entries(CLIENT_PATHS)) {
      const relay = await relayRoute(path(baseUrl));
      await load(relay.port, '', Math.min(n, 100), Math.min(concurrency, 50)); // warm-up
      const r = await load(relay.port, '', n, concurrency);
      relay.server.closeAllConnections();
      relay.server.close();
      const line = `${r.rps.toFixed(1)} req/s, ${r.cpuMs.toFixed(2)} ms CPU per answer, TTFB median ${ms(pct(r.ttfbs, 50))}`;
      rows.push(`    ${label.padEnd(16)} ${name.padEnd(20)} ${line}  (failures ${r.failures})`);
    }
  }
  return rows;
}

/**
 * The cost of instrumentation: two assistant servers, each in a process of its own, one with
 * metrics and tracing (exported in batches to a local OTLP receiver) and one with neither, both
 * loaded at the same time in each round; throughput and each server's own CPU per answer.
 */
async function telemetryCost() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
  const model = await modelProcess(200, 0);
  const sink = await startOtlpSink();
  const off = await startTelemetryServer('assistant', 'off', sink.url, [model.baseUrl]);
  const on = await startTelemetryServer('assistant', 'on', sink.url, [model.baseUrl]);
  const round = async (server: TelemetryServer, n: number) => {
    const cpu = server.cpuMs();
    const r = await load(server.port, server.key, n, CONCURRENCY);
    return { rps: r.rps, cpuMs: (server.cpuMs() - cpu) / n, failures: r.failures };
  };
  await round(off, 300); // warm-up
  await round(on, 300);
  console.log(`instrumentation cost: ${REQUESTS} requests a round, ${rounds} rounds (on and off loaded at the same time), ${CONCURRENCY} concurrent clients, model streams 200 tokens with no delay; CPU of each server process`);
  await compareOnOff(rounds, () => round(off, REQUESTS), () => round(on, REQUESTS), 'answer');
  console.log(`  OTLP exports received ${sink.exports()}`);
  agent.destroy();
  off.stop();
  on.stop();
  sink.close();
  model.stop();
  process.exit(0);
}

async function main() {
  if (process.argv.includes('--telemetry')) return telemetryCost();
  const fastModel = await modelProcess(200, 0);
  const slowModel = await modelProcess(200, 60_000);
  const realisticModel = await modelProcess(200, REALISTIC.tokenMs, REALISTIC.firstTokenMs);
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
  const relay = await relayRoute(portPath(fastModel.baseUrl));
  const realistic = await assistantServer(realisticModel.baseUrl);

  await load(assistant.port, assistant.key, 300, CONCURRENCY); // warm-up
  await load(bare.port, assistant.key, 300, CONCURRENCY);
  await load(bareTokens.port, assistant.key, 300, CONCURRENCY);
  await load(relay.port, assistant.key, 300, CONCURRENCY);
  await load(assistant.stacked.port, assistant.key, 300, CONCURRENCY);
  // The relay, the relay behind the API's stack and the assistant in alternating rounds: the targets are the medians of the per-round ratios.
  type Load = Awaited<ReturnType<typeof load>>;
  const rounds: Array<{ r: Load; s: Load; a: Load }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await load(relay.port, assistant.key, REQUESTS, CONCURRENCY);
    const s = await load(assistant.stacked.port, assistant.key, REQUESTS, CONCURRENCY);
    const a = await load(assistant.port, assistant.key, REQUESTS, CONCURRENCY);
    rounds.push({ r, s, a });
  }
  const throughputRatio = median(rounds.map(({ a, r }) => a.rps / r.rps));
  const cpuRatio = median(rounds.map(({ a, r }) => a.cpuMs / r.cpuMs));
  const { r, a } = rounds.find((x) => x.a.rps / x.r.rps === throughputRatio) ?? rounds[0]!;
  console.log(`assistant vs relay, ${REQUESTS} requests, ${CONCURRENCY} concurrent clients, ${ROUNDS} alternating rounds (median):`);
  for (const [i, x] of rounds.entries()) {
    console.log(
      `  round ${i + 1}: relay ${x.r.rps.toFixed(0)} req/s ${x.r.cpuMs.toFixed(2)} ms CPU/answer, relay behind the API's stack ${x.s.rps.toFixed(0)} req/s ${x.s.cpuMs.toFixed(2)} ms, ` +
        `assistant ${x.a.rps.toFixed(0)} req/s ${x.a.cpuMs.toFixed(2)} ms  (failures ${x.r.failures}, ${x.s.failures}, ${x.a.failures})`,
    );
  }
  const mainThread = rounds.map(({ a, r }) => (a.mainCpuMs === undefined || r.mainCpuMs === undefined ? undefined : { a: a.mainCpuMs, r: r.mainCpuMs }));
  if (mainThread.every((x) => x !== undefined)) {
    const cpu = (side: 'a' | 'r') => median(rounds.map((x) => x[side].cpuMs));
    const onMain = (side: 'a' | 'r') => median(mainThread.map((x) => x[side]));
    console.log(
      `  CPU per answer on the main thread (server and client; medians): assistant ${onMain('a').toFixed(2)} ms, relay ${onMain('r').toFixed(2)} ms; ` +
        `on the process's other threads (the completion writer's, V8's GC helpers, libuv's pool): assistant ${(cpu('a') - onMain('a')).toFixed(2)} ms, relay ${(cpu('r') - onMain('r')).toFixed(2)} ms`,
    );
  }
  console.log(`  throughput ratio (assistant / relay)      ${throughputRatio.toFixed(2)}  (target >= 0.9)`);
  console.log(`  CPU per answer ratio (assistant / relay)  ${cpuRatio.toFixed(2)}  (target <= 1.25)`);
  // What the API's HTTP stack alone costs (no answering at all), and the assistant's own work beyond it.
  const ratio = (f: (x: (typeof rounds)[number]) => number) => median(rounds.map(f)).toFixed(2);
  console.log(
    `  the relay behind the API's stack (request id, metrics, error mapping, CORS, body, key check) / relay: throughput ${ratio((x) => x.s.rps / x.r.rps)}, CPU per answer ${ratio((x) => x.s.cpuMs / x.r.cpuMs)}`,
  );
  console.log(`  assistant / the relay behind the API's stack: throughput ${ratio((x) => x.a.rps / x.s.rps)}, CPU per answer ${ratio((x) => x.a.cpuMs / x.s.cpuMs)}`);
  if (process.env.BENCH_ONLY_RATIOS) {
    agent.destroy();
    fastModel.stop();
    slowModel.stop();
    realisticModel.stop();
    process.exit(0);
  }
  const b = await load(bare.port, assistant.key, REQUESTS, CONCURRENCY);
  const bt = await load(bareTokens.port, assistant.key, REQUESTS, CONCURRENCY);
  // Time to first byte without queueing, one request at a time: the first chunk goes out before the model is called.
  const solo = await load(assistant.port, assistant.key, 300, 1);
  const ar = await load(realistic.port, realistic.key, REALISTIC_REQUESTS, REALISTIC_CONCURRENCY);
  const paths = await compareClientPaths(fastModel.baseUrl, realisticModel.baseUrl);

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
  console.log(`  throughput ratio  ${throughputRatio.toFixed(2)} vs the bare route streaming the same bytes from the same model (target >= 0.9; median of ${ROUNDS} rounds)`);
  console.log(`                    ${(a.rps / b.rps).toFixed(2)} vs replayed bytes with no model call, ${(a.rps / bt.rps).toFixed(2)} vs replayed per-token events; the relay alone: ${(r.rps / b.rps).toFixed(2)} and ${(r.rps / bt.rps).toFixed(2)}`);
  console.log(`  TTFB, one at a time:    median ${ms(pct(solo.ttfbs, 50))}, p99 ${ms(pct(solo.ttfbs, 99))}  (targets <= 5 ms, <= 20 ms)`);
  console.log(`  TTFB, ${CONCURRENCY} clients:       median ${ms(pct(a.ttfbs, 50))}, p99 ${ms(pct(a.ttfbs, 99))}  (bare route: median ${ms(pct(b.ttfbs, 50))}, p99 ${ms(pct(b.ttfbs, 99))})`);
  console.log(`  CPU per answer (this process, server and load client): assistant ${a.cpuMs.toFixed(2)} ms, relay ${r.cpuMs.toFixed(2)} ms, bare route ${b.cpuMs.toFixed(2)} ms`);
  console.log(`  CPU per answer ratio  ${cpuRatio.toFixed(2)} (assistant / relay; target <= 1.25; median of ${ROUNDS} rounds)`);
  console.log(`  realistic model (first token after ${REALISTIC.firstTokenMs} ms, then 30 tokens/s), ${REALISTIC_REQUESTS} requests, ${REALISTIC_CONCURRENCY} concurrent clients:`);
  console.log(`    assistant v2     ${ar.rps.toFixed(1)} req/s, ${ar.cpuMs.toFixed(2)} ms CPU per answer, TTFB median ${ms(pct(ar.ttfbs, 50))}  (failures ${ar.failures})`);
  console.log(`  relaying the model's stream, by client (the model port ships; the others are the alternatives it was measured against):`);
  for (const row of paths) console.log(row);
  console.log(`  memory per open stream (${OPEN_STREAMS} open; server and its client in this process): heap ${perStream('heapUsed')}, external ${perStream('external')}, rss ${perStream('rss')}`);

  agent.destroy();
  for (const s of [assistant.server, held.server, realistic.server, bare.server, bareTokens.server, relay.server]) s.closeAllConnections();
  await Promise.race([Promise.all(open), new Promise((r) => setTimeout(r, 200))]);
  fastModel.stop();
  slowModel.stop();
  realisticModel.stop();
  await Promise.all([assistant.cleanup(), held.cleanup(), realistic.cleanup()]);
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
