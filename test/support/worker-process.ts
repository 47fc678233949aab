import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './temporal.js';
import { stopAtSuiteEnd } from './teardown.js';

/** The built worker entry point with its prebuilt workflow bundle (`npm run build`), as production runs it. */
export const WORKER_MAIN = path.join(REPO_ROOT, 'dist', 'worker', 'main.js');

export interface WorkerProcess {
  child: ChildProcess;
  /** stdout and stderr, as they came. */
  output: () => string;
  /** stdout alone: where the JSON log lines go. */
  stdout: () => string;
  exited: Promise<unknown>;
}

/**
 * Starts a built entry point (`dist/…/*.js`) with only `env` beside PATH and HOME, its output kept;
 * killed at suite end if still running. `cwd`: the folder it runs in (the image's WORKDIR, say).
 */
export function spawnBuilt(main: string, env: Record<string, string>, opts: { cwd?: string } = {}): WorkerProcess {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  let out = '';
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  stopAtSuiteEnd(child, 'SIGKILL');
  return { child, output: () => out, stdout: () => stdout, exited };
}

/** Starts a worker process (to kill it with SIGKILL, as a crash would). */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  // Metrics on any free port unless the test names one: workers of parallel tests never collide.
  return spawnBuilt(WORKER_MAIN, { QUIRE_WORKER_METRICS_PORT: '0', ...env });
}
