import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './tool-error.js';

// The path handed in is already resolved (real folders, no link at the end); O_NOFOLLOW makes a link
// that appeared since then fail the open (ELOOP) instead of being followed.
const READ = constants.O_RDONLY | constants.O_NOFOLLOW;
const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/** Reads a regular file at a resolved path; anything else (missing, a folder, a link) is the model's to correct. */
export async function readResolved(full: string, shown: string): Promise<string> {
  const handle = await fs.open(full, READ).catch(() => undefined);
  if (!handle) throw new ToolError(`${shown} does not exist or is not a file`);
  try {
    if (!(await handle.stat()).isFile()) throw new ToolError(`${shown} does not exist or is not a file`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file at a resolved path, creating its folders. The folders are checked again after they
 * exist: a folder swapped for a link between the check and the write is refused, not followed.
 */
export async function writeResolved(full: string, content: string, shown: string): Promise<void> {
  const dir = path.dirname(full);
  await fs.mkdir(dir, { recursive: true });
  if ((await fs.realpath(dir)) !== dir) throw new ToolError(`a folder of ${shown} changed while writing; try again`);
  const handle = await fs.open(full, WRITE, 0o644);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
