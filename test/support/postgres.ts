import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './redis.js';
import { onSuiteEnd } from './teardown.js';

export interface PostgresServer {
  port: number;
  /** A URL of `database` on this server. */
  url(database: string): string;
  /** A new, empty database for one test; returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown), keeping its data; `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** The newest installed PostgreSQL's programs (Debian's `postgresql` package). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => path.join(root, v, 'bin')).find((d) => fs.existsSync(path.join(d, 'initdb')));
  if (!dir) throw new Error('PostgreSQL is not installed: run `bash infra/setup.sh --test` (it installs Debian\'s postgresql package)');
  return dir;
}

/** initdb refuses to run as root: as root the server runs as the `postgres` user the package created. */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function waitReady(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; ; i++) {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'quire', database: 'postgres', connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (i > 200 || child.exitCode !== null) throw new Error(`PostgreSQL did not start on port ${port}`, { cause: err });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A real PostgreSQL server on a free loopback port in a temporary directory; removed at suite end. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pg-'));
  const data = path.join(dir, 'data');
  const user = serverUser();
  if ('uid' in user) fs.chownSync(dir, user.uid, user.gid);
  const init = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'quire', '--auth=trust', '-E', 'UTF8', '--no-sync'], { encoding: 'utf8', cwd: dir, ...user });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    // Durability settings off: a test server that loses its data in a crash loses nothing of value.
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
    child = spawn(path.join(bin, 'postgres'), args, { stdio: 'ignore', cwd: dir, ...user });
    await waitReady(port, child);
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    // SIGINT is PostgreSQL's fast shutdown: connections are cut, nothing waits for clients.
    c.kill('SIGINT');
    await exited;
  };
  await start();
  onSuiteEnd(async () => {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const url = (database: string) => `postgres://quire@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    stop,
    start,
    async createDatabase() {
      const name = `quire_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
  };
}

let shared: Promise<PostgresServer> | undefined;

/** One PostgreSQL server for the whole suite; each test takes a database of its own. */
export function sharedPostgres(): Promise<PostgresServer> {
  shared ??= startPostgres();
  return shared;
}
