import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { QuireMetrics } from '../core/telemetry/index.js';
import { compiledScript } from './sibling.js';

/** An OTLP/HTTP receiver that accepts every export and keeps nothing: spans really leave the process. */
export async function startOtlpSink(): Promise<{ url: string; exports: () => number; close(): void }> {
  let exports = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports: () => exports, close: () => server.close() };
}

/** A bench server process (`telemetry-server.ts`) on one side of the comparison, and the CPU it has spent. */
export interface TelemetryServer {
  port: number;
  key: string;
  /** User and system CPU of the server process so far, in milliseconds (all its threads). */
  cpuMs(): number;
  stop(): void;
}

/**
 * Starts a bench server with instrumentation `on` (metrics, and tracing exported over OTLP/HTTP
 * protobuf to `otlpUrl` with the sampler this process's OTEL_TRACES_SAMPLER and
 * OTEL_TRACES_SAMPLER_ARG name, the default when unset) or `off`.
 */
export async function startTelemetryServer(kind: 'assistant' | 'agent', mode: 'on' | 'off', otlpUrl: string, args: string[]): Promise<TelemetryServer> {
  const { PATH, HOME, OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG } = process.env;
  const tracing = mode === 'on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG } : {};
  const env = Object.fromEntries(Object.entries({ PATH, HOME, ...tracing }).filter((e): e is [string, string] => e[1] !== undefined));
  // BENCH_API_CPU_PROF=DIR: each server writes a CPU profile of its life there (sampled every 100 µs), named by its side.
  const dir = process.env.BENCH_API_CPU_PROF;
  const profile = dir ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${path.resolve(dir)}`, `--cpu-prof-name=${kind}-${mode}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profile, ...compiledScript('telemetry-server'), kind, mode, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<{ port: number; key: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    child.once('exit', (code) => reject(new Error(`the ${mode} bench server exited with ${code}`)));
  });
  const pid = child.pid!;
  return {
    ...ready,
    cpuMs: () => {
      // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second); the name field may hold spaces.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    stop: () => void child.kill('SIGTERM'),
  };
}

/** One measured round: requests per second and this process's CPU per request in milliseconds. */
export interface RoundFigures {
  rps: number;
  cpuMs: number;
  failures: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Instrumentation off against on in `rounds` rounds (rounded up to an even number), both sides
 * loaded at the same time in each round, so a neighbour's load on this shared machine hits both
 * alike; prints each round and the median, over pairs of rounds, of each pair's ratio of
 * throughput and of CPU per request (on / off).
 *
 * The side whose load starts first in a round is measured at a disadvantage: two identical
 * uninstrumented servers, loaded together, differ by about 9% in CPU per answer and 6% in
 * throughput, the second one ahead (its answers are read in larger batches). So each pair of
 * rounds starts `off` first in one round and `on` first in the other, and a pair's ratio is the
 * geometric mean of its two rounds' ratios: the advantage cancels.
 */
export async function compareOnOff(
  rounds: number,
  off: () => Promise<RoundFigures>,
  on: () => Promise<RoundFigures>,
  unit: string,
): Promise<{ throughput: number; cpu: number }> {
  const pairs: Array<{ rps: number; cpu: number }> = [];
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (r: RoundFigures) => `${r.rps.toFixed(0)} req/s ${r.cpuMs.toFixed(3)} ms CPU/${unit}`;
  for (let i = 0; i < Math.ceil(rounds / 2); i++) {
    const ratios: Array<{ rps: number; cpu: number }> = [];
    for (const onFirst of [false, true]) {
      const [a, b] = onFirst ? await Promise.all([on(), off()]).then(([b1, a1]) => [a1, b1] as const) : await Promise.all([off(), on()]);
      ratios.push({ rps: b.rps / a.rps, cpu: b.cpuMs / a.cpuMs });
      console.log(`  round ${2 * i + (onFirst ? 2 : 1)} (${onFirst ? 'on' : 'off'} first): off ${line(a)}, on ${line(b)}; on/off throughput ${pct(b.rps / a.rps)}, CPU ${pct(b.cpuMs / a.cpuMs)}  (failures ${a.failures}, ${b.failures})`);
    }
    pairs.push({ rps: Math.sqrt(ratios[0]!.rps * ratios[1]!.rps), cpu: Math.sqrt(ratios[0]!.cpu * ratios[1]!.cpu) });
    console.log(`    pair ${i + 1}: on/off throughput ${pct(pairs[i]!.rps)}, CPU ${pct(pairs[i]!.cpu)}`);
  }
  const result = { throughput: median(pairs.map((r) => r.rps)), cpu: median(pairs.map((r) => r.cpu)) };
  console.log(`  median of ${pairs.length} pairs of rounds, on/off: throughput ${pct(result.throughput)}, CPU per ${unit} ${pct(result.cpu)}  (target: throughput >= 95%, CPU <= 105%)`);
  return result;
}

/** Metrics that record nothing: the "off" side of the comparison. */
export function silentMetrics(): QuireMetrics {
  const none = () => undefined;
  return {
    registry: new Registry(),
    http: { observeRequest: none },
    assistant: { firstToken: none, answered: none },
    retrieval: { observeSearch: none },
    limits: { rejected: none },
    db: { observeQuery: none },
    model: { observeRequest: none, tokens: none },
    agent: { turnEnded: none, pullRequest: none },
    webhooks: { delivered: none },
    indexing: { pagesIndexed: none },
    temporal: { observeCall: none },
  };
}
