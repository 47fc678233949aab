/**
 * A normal assistant request's latency while slow clients attack the API
 * (issue 10: slowloris connections outlived 70 s; during 500 streams that never
 * read, one normal request took 12.6 s). Three phases on one server with the
 * production HTTP server and settings (QUIRE_* variables in the environment
 * apply): the normal request alone, during a slowloris attack (headers sent one
 * byte at a time, reconnecting when cut), and during 500 assistant streams whose
 * clients never read a byte of long answers. The scripted model runs in its own
 * process. With the defaults the flood's answers are streamed at a model's pace; BENCH_LONG_TOKENS,
 * BENCH_LONG_TOKEN_CHARS and BENCH_LONG_DELAY_MS make them larger than the sockets' buffers. Prints median and p95 of each phase.
 *
 *   npm run bench:slow-clients   (BENCH_REQUESTS, BENCH_ATTACKERS change the load)
 */
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHttpServer } from '../api/http-server.js';
import { benchAssistant, startModelProcess } from './assistant-app.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 500);
/**
 * The flood's answers, paced like a real model: 3000 tokens of 100 characters, one every 10 ms (30 s,
 * 300 kB each). A client that never reads holds its stream until the stall timeout ends it.
 */
const LONG_TOKENS = Number(process.env.BENCH_LONG_TOKENS ?? 3000);
const LONG_TOKEN_CHARS = Number(process.env.BENCH_LONG_TOKEN_CHARS ?? 100);
const LONG_DELAY_MS = Number(process.env.BENCH_LONG_DELAY_MS ?? 10);
const ROUTE = '/discovery/v2/assistant/docs/message';
const question = (text: string) => JSON.stringify({ fp: 'bench', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }] });
const NORMAL = question('How do I install the CLI?');
const FLOOD = question('How do I install the CLI? [long]');

/** The scripted model in a child process: quick normal answers, long flood answers. */
function modelProcess() {
  return startModelProcess([200, 0, 0, LONG_TOKENS, LONG_TOKEN_CHARS, LONG_DELAY_MS]);
}

/** The assistant behind the API's own HTTP server, on the embedded defaults. */
async function assistantServer(baseUrl: string) {
  const { app, key, config, cleanup } = await benchAssistant(baseUrl, process.env);
  const server = createHttpServer(app, config.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, key, config, cleanup };
}

const agent = new http.Agent({ keepAlive: true });

/** One normal request to its last byte; the time it took, or NaN when it failed. */
function normalRequest(port: number, key: string): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(NORMAL) };
    const req = http.request({ port, host: '127.0.0.1', path: ROUTE, method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && text.endsWith('data: [DONE]\n\n') ? performance.now() - started : NaN));
      res.on('error', () => resolve(NaN));
    });
    req.on('error', () => resolve(NaN));
    req.end(NORMAL);
  });
}

async function measure(port: number, key: string) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await normalRequest(port, key));
  const ok = times.filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
  const pct = (p: number) => ok[Math.min(ok.length - 1, Math.floor((ok.length * p) / 100))] ?? NaN;
  return { median: pct(50), p95: pct(95), failures: times.length - ok.length };
}

/** Slowloris: every connection sends its headers one byte at a time and never finishes them; a cut one reconnects. */
function slowloris(port: number) {
  const header = `GET /healthz HTTP/1.1\r\nHost: bench\r\nX-Slow: ${'a'.repeat(10_000)}`;
  const state = { stopped: false, cut: 0 };
  const sockets = new Set<{ socket: net.Socket; sent: number }>();
  const open = () => {
    const entry = { socket: net.connect(port, '127.0.0.1'), sent: 0 };
    entry.socket.on('error', () => undefined);
    entry.socket.resume();
    entry.socket.once('close', () => {
      sockets.delete(entry);
      if (state.stopped) return;
      state.cut++;
      open();
    });
    sockets.add(entry);
  };
  for (let i = 0; i < ATTACKERS; i++) open();
  const drip = setInterval(() => {
    for (const entry of sockets) {
      if (entry.socket.writable && entry.sent < header.length) entry.socket.write(header[entry.sent++]!);
    }
  }, 100);
  return {
    state,
    stop() {
      state.stopped = true;
      clearInterval(drip);
      for (const { socket } of sockets) socket.destroy();
    },
  };
}

/** Streams that each ask for a long answer, then never read their socket (or, as the control, read it). */
function flood(port: number, key: string, reads: boolean) {
  const state = { closed: 0 };
  const sockets: net.Socket[] = [];
  for (let i = 0; i < ATTACKERS; i++) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('close', () => state.closed++);
    socket.write(
      `POST ${ROUTE} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(FLOOD)}\r\n\r\n${FLOOD}`,
    );
    if (reads) socket.resume();
    else socket.pause();
    sockets.push(socket);
  }
  return { state, stop: () => sockets.forEach((s) => s.destroy()) };
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const line = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
  `  ${name.padEnd(44)} median ${ms(r.median).padStart(9)}   p95 ${ms(r.p95).padStart(9)}   failures ${r.failures}`;

async function main() {
  const model = await modelProcess();
  const api = await assistantServer(model.baseUrl);
  const { headersTimeoutMs, streamStallTimeoutMs } = api.config.http;

  await measure(api.port, api.key); // warm-up
  const alone = await measure(api.port, api.key);

  const loris = slowloris(api.port);
  await sleep(1000); // every attacker connected and dripping
  const lorisStarted = performance.now();
  const duringLoris = await measure(api.port, api.key);
  // Held until the header deadline has passed once, to count the connections it cut.
  await sleep(Math.max(0, headersTimeoutMs + 2000 - (performance.now() - lorisStarted)));
  loris.stop();

  const control = flood(api.port, api.key, true);
  await sleep(2000); // the long answers under way
  const duringReaders = await measure(api.port, api.key);
  control.stop();
  await sleep(1000);

  const stalled = flood(api.port, api.key, false);
  await sleep(2000); // the long answers under way, the sockets' buffers filling
  const duringFlood = await measure(api.port, api.key);
  const openConnections = await new Promise<number>((resolve) => api.server.getConnections((_e, n) => resolve(n)));
  stalled.stop();

  console.log(`slow-clients bench: ${REQUESTS} normal assistant requests one at a time (200-token answer), ${ATTACKERS} attackers`);
  console.log(`  settings: QUIRE_HTTP_HEADERS_TIMEOUT_MS=${headersTimeoutMs}, QUIRE_STREAM_STALL_TIMEOUT_MS=${streamStallTimeoutMs}`);
  console.log(line('alone', alone));
  console.log(line(`during slowloris (${ATTACKERS} connections)`, duringLoris));
  console.log(`    slowloris connections cut by the header deadline (attack held for one deadline): ${loris.state.cut}`);
  console.log(line(`during ${ATTACKERS} streams that read (control)`, duringReaders));
  console.log(line(`during ${ATTACKERS} streams that never read`, duringFlood));
  console.log(`    server connections open at the end of that phase: ${openConnections}`);
  console.log(`  slowloris / alone: median ${(duringLoris.median / alone.median).toFixed(2)}, p95 ${(duringLoris.p95 / alone.p95).toFixed(2)}`);
  console.log(`  never-reading / reading streams: median ${(duringFlood.median / duringReaders.median).toFixed(2)}, p95 ${(duringFlood.p95 / duringReaders.p95).toFixed(2)}`);

  agent.destroy();
  api.server.closeAllConnections();
  model.stop();
  await api.cleanup();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
