import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './tool-error.js';

/** Linux follows at most 40 links while resolving one path; a longer chain is a loop or an attack. */
const MAX_LINKS = 40;

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function lstatOrMissing(p: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return undefined;
    throw err;
  }
}

/**
 * Where `segments` (relative to the workspace root) really lead, resolving every symlink by reading
 * it, one component at a time, so a link whose target does not exist yet is judged by where it
 * points rather than skipped (`realpath` fails on such a link; falling back to the parent was the
 * escape). Every step must stay inside the workspace; the result is a path whose directories are
 * real. With `followLast` false the last component is left as it is (delete and move act on a link
 * itself, never on what it points at).
 */
export async function resolveInside(
  roots: { root: string; realRoot: string },
  segments: string[],
  shown: string,
  followLast: boolean,
): Promise<string> {
  const escape = () => new ToolError(`path ${shown} resolves through a symlink to outside the workspace`);
  const pending = [...segments];
  let current = roots.realRoot;
  let links = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = path.dirname(current);
      if (!inside(roots.realRoot, current)) throw escape();
      continue;
    }
    const next = path.join(current, segment);
    const stat = await lstatOrMissing(next);
    if (!stat?.isSymbolicLink() || (pending.length === 0 && !followLast)) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new ToolError(`path ${shown} goes through too many symlinks`);
    const target = await fs.readlink(next);
    if (path.isAbsolute(target)) {
      // An absolute target restarts from the root; it may name the workspace by its real or its given path.
      const base = inside(roots.realRoot, target) ? roots.realRoot : inside(roots.root, target) ? roots.root : undefined;
      if (base === undefined) throw escape();
      pending.unshift(...path.relative(base, target).split(path.sep));
      current = roots.realRoot;
    } else {
      pending.unshift(...target.split(/[\\/]/));
    }
  }
  return current;
}

export { inside };
