import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from './confine.js';
import { checkPathNames, isGitFolderName } from './path-names.js';
import { ToolError } from './tool-error.js';

export { ToolError };

export interface DocsRoots {
  /** Repository root of the workspace. */
  root: string;
  /** Docs root; every tool path is relative to it. */
  docsRoot: string;
}

/**
 * Resolves a model-supplied path against the docs root. Refuses absolute paths, `..`, unprintable
 * or overlong names, anything in git's folder, and any symlink (dangling, chained, or in a parent
 * folder) that leads out of the workspace. Returns the resolved location, whose folders are real,
 * so the caller never follows a link the check did not see. With `followLast: false` a link at the
 * end is returned as itself (for delete and move).
 */
export async function resolveToolPath(
  roots: DocsRoots,
  input: unknown,
  opts: { allowRoot?: boolean; followLast?: boolean } = {},
): Promise<string> {
  if (typeof input !== 'string') throw new ToolError('path must be a string relative to the docs root');
  const raw = input.trim().replace(/\\/g, '/');
  if (raw.includes('\0')) throw new ToolError('path contains a NUL character');
  const docsSegments = path.relative(roots.root, roots.docsRoot).split(path.sep).filter((s) => s !== '');
  if (raw === '' || raw === '.' || raw === './') {
    if (!opts.allowRoot) throw new ToolError('path must name a file relative to the docs root');
    return resolveInside({ root: roots.root, realRoot: await fs.realpath(roots.root) }, docsSegments, input, true);
  }
  if (path.posix.isAbsolute(raw) || /^[A-Za-z]:/.test(raw) || raw.startsWith('~'))
    throw new ToolError(`absolute paths are not allowed (${input}); use a path relative to the docs root`);
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new ToolError(`'..' is not allowed in paths (${input}); stay inside the docs root`);
  checkPathNames(segments, input);
  const realRoot = await fs.realpath(roots.root);
  const resolved = await resolveInside({ root: roots.root, realRoot }, [...docsSegments, ...segments], input, opts.followLast ?? true);
  if (path.relative(realRoot, resolved).split(path.sep).some(isGitFolderName)) throw new ToolError(`the .git folder is off limits (${input})`);
  return resolved;
}

/**
 * Refuses a change at a resolved location outside the docs folder (reached through a link inside
 * the workspace, say `index.md -> ../README.md`): only the docs folder's changes are committed,
 * so such an edit would be told done and then dropped.
 */
export async function requireInDocs(roots: DocsRoots, full: string, shown: string): Promise<void> {
  const realDocs = await fs.realpath(roots.docsRoot);
  const rel = path.relative(realDocs, full);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    const where = path.relative(await fs.realpath(roots.root), full).split(path.sep).join('/');
    throw new ToolError(`${shown} leads to ${where}, outside the docs folder (through a link); only the docs folder's files can be changed`);
  }
}

/** The path a tool shows for `full`, found under `dir` (which the model named `shownDir`), with forward slashes. */
export function shownPath(shownDir: string, dir: string, full: string): string {
  const rel = path.relative(dir, full).split(path.sep).join('/');
  const base = shownDir.trim().replace(/\\/g, '/').replace(/^\.\/?/, '').replace(/\/+$/, '');
  return base ? `${base}/${rel}` : rel;
}
