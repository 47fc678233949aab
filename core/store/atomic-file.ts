import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * Writes JSON so that a crash at any point leaves either the old or the new
 * file, never a torn one: temp file, fsync, rename, fsync of the folder.
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(value, null, 2) + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
  const dir = await fs.open(path.dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** Reads a JSON file, or returns undefined when it does not exist. */
export async function readJsonIfExists<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Runs `fn` holding a cross-process lock on `file` (the CLI and the service
 * may write the same file at once). Stale locks of crashed writers expire.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const release = await lockfile.lock(file, {
    realpath: false,
    // A writer holds the lock for milliseconds; a dead writer's lock is taken over after 2 s (the minimum).
    stale: 2_000,
    retries: { retries: 150, minTimeout: 5, maxTimeout: 50, factor: 1.3 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}
