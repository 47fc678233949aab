/**
 * The embedded database (one SQLite file in the data directory) under several real processes at once:
 * concurrent writers, a writer SIGKILLed mid-write, a writer SIGSTOPped for longer than the 2 s
 * stale time of the lock files they replaced. Nothing acknowledged is lost and no process exits.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { tempDir, testConfig, testPlatform } from '../../support/services.js';
import { stopAtSuiteEnd } from '../../support/teardown.js';

const WRITER = path.resolve(__dirname, '../../support/store-writer.ts');

interface Writer {
  child: ChildProcess;
  acks: string[];
  failures: string[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the writer has acknowledged `n` writes in all. */
  acked(n: number): Promise<void>;
}

function writer(kind: 'tenants' | 'pulls' | 'jobs', dataDir: string, count: number | 'forever', tag = '0'): Writer {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', WRITER, kind, dataDir, String(count), tag], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acks: string[] = [];
  const failures: string[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('ack ')) acks.push(line.slice(4));
      else if (line.startsWith('fail ')) failures.push(line.slice(5));
    }
    for (const w of waiters.filter((w) => acks.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  stopAtSuiteEnd(child, 'SIGKILL');
  const acked = (n: number) =>
    acks.length >= n
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiters.push({ n, resolve })),
          exit.then((e) => Promise.reject(new Error(`writer exited (${e.code ?? e.signal}) after ${acks.length} of ${n} writes`))),
        ]);
  return { child, acks, failures, exit, acked };
}

/** The embedded database of a data directory, opened (and migrated) in this process. */
async function embedded(dir: string) {
  const { tenants, pulls } = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir }));
  return { tenants, pulls };
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

describe('embedded stores across processes', function () {
  this.timeout(120_000);

  it('loses no key when eight processes create keys at once, and a reader in this process sees every one', async () => {
    const dir = await tempDir();
    const store = (await embedded(dir)).tenants;
    await store.addOrg('acme');
    const writers = Array.from({ length: 8 }, (_, i) => writer('tenants', dir, 40, String(i)));
    // Read while they write: a reader never waits for a writer in WAL mode.
    let reads = 0;
    const done = Promise.all(writers.map((w) => w.exit));
    while (writers.some((w) => w.child.exitCode === null)) {
      await store.listKeys('acme');
      reads++;
      await sleep(5);
    }
    for (const e of await done) assert.deepEqual(e, { code: 0, signal: null });
    assert.deepEqual(writers.flatMap((w) => w.failures), [], 'no write was refused');
    const ids = new Set((await store.listKeys('acme')).map((k) => k.id));
    assert.equal(ids.size, 320);
    for (const id of writers.flatMap((w) => w.acks)) assert.ok(ids.has(id), `acknowledged key ${id} is stored`);
    console.log(`      (8 writers × 40 keys: 320 stored, 0 refused, ${reads} reads meanwhile)`);
  });

  it('numbers pull requests without a gap or a duplicate when six processes open them at once', async () => {
    const dir = await tempDir();
    const writers = Array.from({ length: 6 }, (_, i) => writer('pulls', dir, 10, String(i)));
    for (const e of await Promise.all(writers.map((w) => w.exit))) assert.deepEqual(e, { code: 0, signal: null });
    const numbers = writers.flatMap((w) => w.acks.map(Number)).sort((a, b) => a - b);
    assert.deepEqual(numbers, Array.from({ length: 60 }, (_, i) => i + 1));
    assert.equal((await (await embedded(dir)).pulls.get('docs', 60))?.state, 'open');
  });

  it('keeps the highest revision of a job written by six processes in different orders', async () => {
    const dir = await tempDir();
    const writers = Array.from({ length: 6 }, (_, i) => writer('jobs', dir, 40, String(i)));
    for (const e of await Promise.all(writers.map((w) => w.exit))) assert.deepEqual(e, { code: 0, signal: null });
    const { jobs } = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir }));
    assert.equal((await jobs.get('docs', 'job_shared'))?.revision, 39);
  });

  it('a writer SIGKILLed mid-write leaves a whole database holding every write it acknowledged', async () => {
    const dir = await tempDir();
    const store = (await embedded(dir)).tenants;
    await store.addOrg('acme');
    const acknowledged: string[] = [];
    for (let round = 0; round < 4; round++) {
      const w = writer('tenants', dir, 'forever');
      // Killed at a different point of its write loop each round.
      await w.acked(20 + round * 13);
      w.child.kill('SIGKILL');
      await w.exit;
      acknowledged.push(...w.acks);
      assert.equal(integrity(path.join(dir, 'quire.db')), 'ok');
      await store.createKey('acme', 'admin'); // the next writer is not blocked by the dead one
    }
    const keys = await store.listKeys('acme');
    const ids = new Set(keys.map((k) => k.id));
    for (const id of acknowledged) assert.ok(ids.has(id), `acknowledged key ${id} survived the kill`);
    assert.equal(keys.filter((k) => k.kind === 'admin').length, 4);
  });

  it('a writer SIGSTOPped past the old 2 s stale time goes on when continued; others write meanwhile', async () => {
    const dir = await tempDir();
    const store = (await embedded(dir)).tenants;
    await store.addOrg('acme');
    const w = writer('tenants', dir, 'forever');
    await w.acked(30);
    w.child.kill('SIGSTOP');
    // The stall is the stimulus, not a measurement: the lock files' stale time was 2 s. Another
    // process writes meanwhile (if the stop caught a transaction, it waits for the lock, and gets it).
    const other = writer('tenants', dir, 20, '1');
    await sleep(3_000);
    const before = w.acks.length;
    w.child.kill('SIGCONT');
    await w.acked(before + 30);
    assert.deepEqual(await other.exit, { code: 0, signal: null });
    assert.deepEqual(other.failures, []);
    assert.equal(w.child.exitCode, null, 'the stalled writer is still running');
    assert.deepEqual(w.failures, []);
    w.child.kill('SIGTERM');
    assert.deepEqual(await w.exit, { code: null, signal: 'SIGTERM' }, 'it ended by our signal, not by a crash of its own');
    const ids = new Set((await store.listKeys('acme')).map((k) => k.id));
    for (const id of [...w.acks, ...other.acks]) assert.ok(ids.has(id), `key ${id} kept`);
  });
});
