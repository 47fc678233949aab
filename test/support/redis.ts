import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { onSuiteEnd } from './teardown.js';

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A real redis-server on a free loopback port, no persistence; stopped at suite end. */
export async function startRedis(port?: number): Promise<RedisServer> {
  const p = port ?? (await freePort());
  const child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${p}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (err) {
      if (i > 100 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${p}`, { cause: err });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  let stopped = false;
  const stop = async () => {
    if (stopped || child.exitCode !== null || child.signalCode !== null) return;
    stopped = true;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  onSuiteEnd(stop);
  return { url, port: p, process: child, stop };
}

let shared: Promise<RedisServer> | undefined;

/** One redis-server shared by the suite; tests use their own key prefixes or flush it. */
export function sharedRedis(): Promise<RedisServer> {
  shared ??= startRedis();
  return shared;
}
