import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes compact JSON so that a crash at any point leaves either the old or the new file, never a
 * torn one: temp file, fsync, rename, fsync of the folder. The one JSON writer of the project (the
 * embedded index's snapshots); records live in SQLite (see sqlite.ts).
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(value));
    await handle.sync();
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
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
