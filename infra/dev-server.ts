import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../core/contracts/search-attributes.js';

export interface DevServer {
  address: string;
  uiUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  binary: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** Aborted by Ctrl-C: stop waiting for the server, stop it, throw DevServerInterrupted. */
  signal?: AbortSignal;
}

async function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(true));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(false)));
  });
}

/** Start-up was interrupted (Ctrl-C) while the dev server was coming up; it has been stopped. */
export class DevServerInterrupted extends Error {
  override name = 'DevServerInterrupted';
}

/** One readiness probe, bounded: a server that accepts connections before it serves must not hang it. */
async function answers(address: string): Promise<boolean> {
  // No retry interceptor: this loop is the retry.
  const c = await Connection.connect({ address, connectTimeout: '1s', interceptors: [] }).catch(() => undefined);
  if (!c) return false;
  try {
    await c.withDeadline(Date.now() + 2000, () => c.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  } finally {
    await c.close().catch(() => undefined);
  }
}

async function waitUntilServing(address: string, child: ChildProcess, logFile: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) throw new DevServerInterrupted('interrupted while the Temporal dev server was starting');
    if (child.exitCode !== null) {
      throw new Error(`the Temporal dev server exited with code ${child.exitCode}; see ${logFile}`);
    }
    if (await answers(address)) return;
    if (Date.now() > deadline) throw new Error(`the Temporal dev server did not answer on ${address} within ${timeoutMs / 1000}s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts the Temporal CLI dev server as a child process, its state in a SQLite
 * file under the data directory, with Quire's search attributes registered.
 */
export async function startDevServer(o: DevServerOptions): Promise<DevServer> {
  if (!fs.existsSync(o.binary)) {
    throw new Error(`the Temporal CLI is missing at ${o.binary}; run: bash infra/setup.sh (or set QUIRE_TEMPORAL_BIN)`);
  }
  for (const [name, port] of [['QUIRE_TEMPORAL_PORT', o.port], ['QUIRE_TEMPORAL_UI_PORT', o.uiPort]] as const) {
    if (await portInUse(port)) throw new Error(`port ${port} is already in use; stop the other process or set ${name}`);
  }
  fs.mkdirSync(o.dataDir, { recursive: true });
  const logFile = path.join(o.dataDir, 'temporal.log');
  const log = fs.openSync(logFile, 'a');
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(o.port),
    '--ui-port', String(o.uiPort),
    '--db-filename', path.join(o.dataDir, 'temporal.sqlite'),
    '--namespace', o.namespace,
    '--log-level', 'error',
    ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=Keyword`]),
  ];
  // Own process group: Ctrl-C in the terminal reaches us, and we stop the server last, after the worker drained.
  // Through the guard, which stops the server if we die without stopping it (the CLI cannot watch its parent).
  const guard = path.resolve(__dirname, 'child-guard.js');
  const child = spawn(process.execPath, [guard, o.binary, ...args], { stdio: ['ignore', log, log, 'ipc'], detached: true });
  fs.closeSync(log);
  const address = `127.0.0.1:${o.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    // The whole group: the guard and the server it runs.
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilServing(address, child, logFile, 60_000, o.signal);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl: `http://localhost:${o.uiPort}`, process: child, stop };
}
