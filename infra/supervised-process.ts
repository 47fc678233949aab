import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether something already listens on `port` of loopback: a child must not start over it. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(true));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(false)));
  });
}

/** The variables an engine child (Temporal's dev server, the local embedder) needs from the start command's environment. */
const ENGINE_VARIABLES = ['PATH', 'HOME', 'USER', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'SYSTEMROOT'];

/** Only those: never Quire's settings or secrets (model keys, database URLs, forge tokens) the start command was given. */
export function engineEnv(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(ENGINE_VARIABLES.filter((name) => from[name] !== undefined).map((name) => [name, from[name]]));
}

/**
 * Spawns a program that cannot watch its parent (the Temporal CLI, the embedder) through the child
 * guard, which stops it if the start command dies without stopping it; its output is appended to
 * `logFile`, and it runs in its own process group, which the supervisor stops. It gets the
 * environment of `engineEnv` only.
 */
export function spawnGuarded(binary: string, args: string[], logFile: string): ChildProcess {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'a');
  try {
    return spawn(process.execPath, [path.resolve(__dirname, 'child-guard.js'), binary, ...args], { stdio: ['ignore', log, log, 'ipc'], detached: true, env: engineEnv() });
  } finally {
    fs.closeSync(log);
  }
}

/**
 * One process the start command runs and keeps running. Adding a process to
 * the embedded stack is writing one of these.
 */
export interface ChildSpec {
  /** Shown in log lines and reasons: `worker`, `api`, `Temporal dev server`. */
  name: string;
  /** Names of the children that must be ready before this one starts or restarts. */
  needs?: readonly string[];
  /** Spawns one run in its own process group with an IPC channel (see `nodeScript`); throws when it cannot start. */
  start(): ChildProcess | Promise<ChildProcess>;
  /** Resolves once the run serves; may throw. Aborted when the run exits, times out or is stopped. */
  ready(run: ChildProcess, signal: AbortSignal): Promise<void>;
  /** How long a run may take to become ready before it counts as failed (default 60 s). */
  readyTimeoutMs?: number;
  /** How long a stop (SIGTERM) may take before the run's process group is killed (default 10 s). */
  stopGraceMs?: number;
  /** Appended to a failure reason: where to look (`see temporal.log in the data directory`). */
  hint?: string;
}

/** How one run of a child ended. */
export interface RunEnd {
  /** It became ready before it ended. */
  wasReady: boolean;
  /** When it became ready (ms since the epoch). */
  readyAt?: number;
  /** Why it ended, to follow "the worker …": `exited unexpectedly (SIGKILL)`, `did not become ready within 60s`. */
  reason: string;
}

/** Spawns a compiled entry point with this Node, as the start command runs the worker and the API. */
export function nodeScript(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  // Own process group: Ctrl-C reaches only the start command, which stops each child once, in order.
  // The IPC channel closes if the start command dies, and the child then stops itself (core/run-main.ts).
  return spawn(process.execPath, [script], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
}

/** Ready when the run says so over its IPC channel (`announceReady` in core/run-main.ts). */
export function announcesReady(run: ChildProcess, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (message !== 'ready') return;
      run.off('message', onMessage);
      resolve();
    };
    run.on('message', onMessage);
    signal.addEventListener('abort', () => run.off('message', onMessage), { once: true });
  });
}

/** Ready when `url` answers 200; polled until then. */
export function answersHttp(url: string) {
  return async (_run: ChildProcess, signal: AbortSignal): Promise<void> => {
    while (!signal.aborted) {
      const ok = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(2_000)]) }).then((r) => r.ok, () => false);
      if (ok) return;
      await sleep(150, undefined, { signal }).catch(() => undefined);
    }
  };
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Kills whatever is left of a run's process group (a guarded program, a git the worker ran). */
function killGroup(run: ChildProcess): void {
  try {
    if (run.pid) process.kill(-run.pid, 'SIGKILL');
  } catch {
    // The group is already empty.
  }
}

/**
 * Runs a child once: spawns it, waits until it is ready, then until it exits. A run that cannot
 * start, exits first, or is not ready in time ends unready (and is killed); `stop()` ends it on purpose.
 */
export class ChildRun {
  private run: ChildProcess | undefined;
  /** Resolves with how the run exited: `SIGKILL`, `code 1`. */
  private exited: Promise<string> | undefined;
  private stopped = false;

  constructor(
    private readonly spec: ChildSpec,
    private readonly on: { spawned: (run: ChildProcess) => void; ready: () => void },
  ) {}

  get pid(): number | undefined {
    return this.run?.pid;
  }

  async runToEnd(): Promise<RunEnd> {
    const timeoutMs = this.spec.readyTimeoutMs ?? 60_000;
    try {
      this.run = await this.spec.start();
    } catch (err) {
      return { wasReady: false, reason: `could not start: ${errorMessage(err)}` };
    }
    const run = this.run;
    this.on.spawned(run);
    // Stopped while it was being spawned: it exits at once and the run ends unready.
    if (this.stopped) run.kill('SIGTERM');
    this.exited = new Promise<string>((resolve) => {
      run.once('exit', (code, signal) => {
        killGroup(run);
        resolve(signal ?? `code ${code}`);
      });
      run.once('error', (err) => resolve(err.message));
    });
    const waiting = new AbortController();
    const outcome = await Promise.race([
      this.exited.then((how) => ({ reason: `exited before it was ready (${how})` })),
      this.spec.ready(run, waiting.signal).then(
        () => ({ reason: undefined }),
        (err: unknown) => ({ reason: `could not become ready: ${errorMessage(err)}` }),
      ),
      sleep(timeoutMs, undefined, { signal: waiting.signal }).then(
        () => ({ reason: `did not become ready within ${timeoutMs / 1000}s` }),
        () => ({ reason: 'stopped' }),
      ),
    ]);
    waiting.abort();
    if (outcome.reason !== undefined) {
      killGroup(run);
      await this.exited;
      return { wasReady: false, reason: outcome.reason };
    }
    const readyAt = Date.now();
    this.on.ready();
    return { wasReady: true, readyAt, reason: `exited unexpectedly (${await this.exited})` };
  }

  /** Stops the run (SIGTERM, then its whole process group after the grace); resolves once it has exited. */
  async stop(): Promise<void> {
    this.stopped = true;
    const run = this.run;
    if (!run || !this.exited || run.exitCode !== null || run.signalCode !== null) return;
    run.kill('SIGTERM');
    const timer = setTimeout(() => killGroup(run), this.spec.stopGraceMs ?? 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
