/**
 * Where the assistant's time goes: drives the bench's assistant (or its relay route, alone or behind the API's stack) with the
 * bench's load (50 clients, the scripted model streaming 200 tokens from its own process) and,
 * after a warm-up, records a CPU profile of the measured requests only (and, with HEAP_OUT, a
 * sampling heap profile that counts collected objects too). Open the files in Chrome DevTools.
 * Without PROFILE_OUT or HEAP_OUT nothing is profiled. It prints the process's CPU per answer and,
 * on Linux, the main thread's own (the completion writer's thread works beside it): in the bench
 * the server and the load client share the main thread, so its CPU per answer bounds throughput.
 *
 * Run it compiled, as production runs (under tsx every function pays a naming helper):
 *
 *   npx tsc -p tsconfig.bench.json
 *   PROFILE_OUT=assistant.cpuprofile [HEAP_OUT=assistant.heapprofile] node dist/benches/bench/profile-assistant.js [assistant|stacked|relay] [requests]
 */
// First, as in the API's entry point: tracing (off unless OTEL_* configure it) starts before the app's modules load.
import '../api/instrumentation.js';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { benchAssistant, relayApp, startModelProcess } from './assistant-app.js';
import { portPath } from './client-paths.js';
import { threadCpuMs } from './thread-cpu.js';

const which = process.argv[2] ?? 'assistant';
const N = Number(process.argv[3] ?? 3000);
const BODY = JSON.stringify({ fp: 'bench', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I install the CLI?' }] }] });
const agent = new http.Agent({ keepAlive: true });

function post(port: number, key: string): Promise<void> {
  return new Promise((resolve) => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(BODY) };
    const req = http.request({ port, host: '127.0.0.1', path: '/discovery/v2/assistant/docs/message', method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        if (!text.endsWith('data: [DONE]\n\n')) console.error('bad', res.statusCode, text.slice(0, 200));
        resolve();
      });
    });
    req.end(BODY);
  });
}

async function main() {
  const model = await startModelProcess([200, 0]);
  const { app, stackedRelay, key, cleanup } = await benchAssistant(model.baseUrl);
  const served = which === 'relay' ? relayApp(portPath(model.baseUrl)) : which === 'stacked' ? stackedRelay : app;
  const server = http.createServer(served.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const run = async (n: number) => {
    let next = 0;
    const t = performance.now();
    const cpu = process.cpuUsage();
    const main = threadCpuMs();
    await Promise.all(Array.from({ length: 50 }, async () => { while (next++ < n) await post(port, key); }));
    const c = process.cpuUsage(cpu);
    const mainMs = main === undefined ? undefined : threadCpuMs()! - main;
    const mainLine = mainMs === undefined ? '' : `, main thread ${(mainMs / n).toFixed(2)} ms`;
    console.log(`${which}: ${(n / ((performance.now() - t) / 1000)).toFixed(0)} req/s ${((c.user + c.system) / 1000 / n).toFixed(2)} ms CPU/answer${mainLine}`);
  };
  const profiling = Boolean(process.env.PROFILE_OUT || process.env.HEAP_OUT);
  const session = new Session();
  if (profiling) {
    // A profiler started once makes V8 keep where inlined code came from in what it optimizes from
    // then on: without it, the warm-up's optimized code counts every inlined callee as its caller's.
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await session.post('Profiler.stop');
  }
  await run(300);
  if (profiling) {
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    if (process.env.HEAP_OUT) await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  await run(N);
  if (profiling) {
    if (process.env.HEAP_OUT) fs.writeFileSync(process.env.HEAP_OUT, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile));
    const { profile } = await session.post('Profiler.stop');
    if (process.env.PROFILE_OUT) fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    session.disconnect();
  }
  agent.destroy();
  server.closeAllConnections();
  server.close();
  model.stop();
  await cleanup();
  process.exit(0);
}
void main();
