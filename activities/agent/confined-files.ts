import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './tool-error.js';

// The path handed in is already resolved (real folders, no link at the end); O_NOFOLLOW makes a link
// that appeared since then fail the open (ELOOP) instead of being followed.
const READ = constants.O_RDONLY | constants.O_NOFOLLOW;
const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/**
 * Reads a regular file at a resolved path; anything else (missing, a folder, a link) is the model's to
 * correct. With `maxBytes` only the file's start is read, so a huge file costs no more than the bound.
 */
export async function readResolved(full: string, shown: string, opts: { maxBytes?: number } = {}): Promise<string> {
  const handle = await fs.open(full, READ).catch(() => undefined);
  if (!handle) throw new ToolError(`${shown} does not exist or is not a file`);
  try {
    if (!(await handle.stat()).isFile()) throw new ToolError(`${shown} does not exist or is not a file`);
    if (opts.maxBytes === undefined) return textOf(await handle.readFile(), shown);
    const buffer = Buffer.alloc(opts.maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, opts.maxBytes, 0);
    // A character cut at the bound decodes as U+FFFD; drop it rather than show a broken one.
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/\uFFFD$/, '');
  } finally {
    await handle.close();
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's bytes as text, when they are UTF-8 text: a binary file, or text in another encoding,
 * would come back with its bytes replaced (and a replace_text would write that back over every
 * line), so the model is told instead.
 */
function textOf(bytes: Buffer, shown: string): string {
  const refused = `${shown} is not UTF-8 text (a binary file, or text in another encoding); these tools read and edit UTF-8 text only`;
  if (bytes.includes(0)) throw new ToolError(refused);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ToolError(refused);
  }
}

/**
 * Writes a file at a resolved path, creating its folders; text with a NUL is refused. The folders are checked again after they
 * exist: a folder swapped for a link between the check and the write is refused, not followed.
 */
export async function writeResolved(full: string, content: string, shown: string): Promise<void> {
  // What the read side refuses as not text is not written either: a page with a NUL would be pushed unvalidated.
  if (content.includes('\0')) throw new ToolError(`the content for ${shown} holds a NUL character; pages are UTF-8 text without NUL`);
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
