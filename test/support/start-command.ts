/** Runs `npm start` (`node dist/infra/start.js`) as a test subject and looks at the processes it runs. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { onSuiteEnd } from './teardown.js';

const START = path.resolve(__dirname, '../../dist/infra/start.js');

export interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** Runs README command one's process (`node dist/infra/start.js`, built by `npm test`) with its own ports and data dir. */
export function start(env: Record<string, string>, opts: { ownGroup?: boolean } = {}): Started {
  const child = spawn(process.execPath, [START], {
    // Metrics listeners on any free ports, and no local embedder (its own tests cover it): stacks never collide on a port.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', QUIRE_METRICS_PORT: '0', QUIRE_WORKER_METRICS_PORT: '0', QUIRE_EMBEDDER: 'none', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.ownGroup ?? false,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  onSuiteEnd(async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await exit;
    }
  });
  return { child, output: () => out, exit };
}

export async function waitFor(s: Started, pattern: RegExp, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  while (!pattern.test(s.output())) {
    if (s.child.exitCode !== null) throw new Error(`exited ${s.child.exitCode}:\n${s.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return s.output();
}

export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** A file of /proc, or undefined when its process ended since /proc was listed. */
function procFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ESRCH')) return undefined;
    throw err;
  }
}

/** Every process descending from `pid` (Linux /proc), with its command line. */
export function descendants(pid: number): Array<{ pid: number; cmd: string }> {
  const parentOf = new Map<number, number>();
  for (const name of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const stat = procFile(`/proc/${name}/stat`);
    if (stat === undefined) continue;
    // Field 4 (ppid) follows the command name, which sits in parentheses and may contain spaces.
    parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const found: Array<{ pid: number; cmd: string }> = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      const cmdline = procFile(`/proc/${child}/cmdline`);
      if (cmdline === undefined) continue;
      found.push({ pid: child, cmd: cmdline.split('\0').join(' ') });
      walk(child);
    }
  };
  walk(pid);
  return found;
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); // a zombie has exited
  } catch {
    return false;
  }
};

export function pidOf(s: Started, script: RegExp): number {
  const found = descendants(s.child.pid!).find((p) => script.test(p.cmd));
  assert.ok(found, `a process running ${script} under the start command`);
  return found.pid;
}

export async function readyz(port: string): Promise<number> {
  return fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
}
