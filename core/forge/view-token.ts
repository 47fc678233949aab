import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const SECRET_FILE = 'forge-link.key';

/**
 * The installation's secret for pull-request links, created on first use in
 * the worker's data directory. The API checks a link against the hash its pull
 * request record keeps, so deleting the secret retires a link only when the
 * job's next turn records the new one.
 */
export async function linkSecret(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SECRET_FILE);
  const existing = await fs.readFile(file).catch(() => undefined);
  if (existing && existing.length >= 32) return existing;
  await fs.mkdir(dataDir, { recursive: true });
  try {
    await fs.writeFile(file, randomBytes(32), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // A racing writer's secret wins for both.
  return fs.readFile(file);
}

/**
 * The view token of one pull request: unguessable without the secret, and
 * the same on every turn and retry, so a job's prLink never changes. The
 * record keeps only its hash.
 */
export function viewToken(secret: Buffer, projectId: string, number: number): string {
  return `pv_${createHmac('sha256', secret).update(`pull-view\0${projectId}\0${number}`).digest('base64url')}`;
}
