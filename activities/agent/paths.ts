import fs from 'node:fs/promises';
import path from 'node:path';

/** A problem the model caused and can read and correct; never thrown out of the activity. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export interface DocsRoots {
  /** Repository root of the workspace. */
  root: string;
  /** Docs root; every tool path is relative to it. */
  docsRoot: string;
}

async function realpathOfExistingAncestor(p: string): Promise<string> {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolves a model-supplied path against the docs root. Refuses absolute paths, `..`,
 * anything under `.git/`, and symlinks whose target leaves the workspace.
 */
export async function resolveToolPath(roots: DocsRoots, input: unknown, opts: { allowRoot?: boolean } = {}): Promise<string> {
  if (typeof input !== 'string') throw new ToolError('path must be a string relative to the docs root');
  const raw = input.trim().replace(/\\/g, '/');
  if (raw.includes('\0')) throw new ToolError('path contains a NUL character');
  if (raw === '' || raw === '.' || raw === './') {
    if (opts.allowRoot) return roots.docsRoot;
    throw new ToolError('path must name a file relative to the docs root');
  }
  if (path.posix.isAbsolute(raw) || /^[A-Za-z]:/.test(raw) || raw.startsWith('~'))
    throw new ToolError(`absolute paths are not allowed (${input}); use a path relative to the docs root`);
  const segments = raw.split('/');
  if (segments.includes('..')) throw new ToolError(`'..' is not allowed in paths (${input}); stay inside the docs root`);
  const full = path.join(roots.docsRoot, ...segments.filter((s) => s !== '' && s !== '.'));
  if (!inside(roots.docsRoot, full)) throw new ToolError(`path ${input} leaves the docs root`);
  if (path.relative(roots.root, full).split(path.sep).includes('.git'))
    throw new ToolError(`the .git folder is off limits (${input})`);
  // Symlinks: the real location of the path (or of its nearest existing parent) must stay in the workspace.
  const realRoot = await fs.realpath(roots.root);
  const real = await realpathOfExistingAncestor(full);
  if (!inside(realRoot, real)) throw new ToolError(`path ${input} resolves through a symlink to outside the workspace`);
  if (path.relative(realRoot, real).split(path.sep).includes('.git'))
    throw new ToolError(`the .git folder is off limits (${input})`);
  return full;
}

/** The docs-relative form of an absolute workspace path, with forward slashes. */
export function docsRelative(roots: DocsRoots, full: string): string {
  return path.relative(roots.docsRoot, full).split(path.sep).join('/');
}
