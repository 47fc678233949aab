import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';

const queues = new Map<string, Promise<void>>();

function isBusy(err: unknown): boolean {
  return err instanceof Error && 'code' in err && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED');
}

/**
 * Runs `fn` holding a cross-process lock on `file` (two indexers writing one domain's snapshot).
 * The lock is SQLite's write lock on `<file>.lock`, held by the kernel for this process: it is
 * released when the process ends however it ends, and never expires while the process lives, so a
 * stalled holder (a long GC pause, SIGSTOP) makes others wait instead of losing the lock and
 * crashing, as a lock file with a stale time did. Waiting polls without blocking the event loop.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  // One holder per process at a time: SQLite's lock is per connection, and our callers are concurrent.
  const before = queues.get(file) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  queues.set(file, tail);
  await before;
  let lock: Database.Database | undefined;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    lock = new Database(`${file}.lock`);
    lock.pragma('busy_timeout = 0');
    for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
      try {
        lock.exec('BEGIN IMMEDIATE');
        break;
      } catch (err) {
        if (!isBusy(err)) throw err;
        await sleep(wait);
      }
    }
    try {
      return await fn();
    } finally {
      lock.exec('ROLLBACK');
    }
  } finally {
    lock?.close();
    done();
    if (queues.get(file) === tail) queues.delete(file);
  }
}
