import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const PAGE_FILE = /\.(md|mdx)$/i;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'snippets', '_snippets']);
/** Files that are about the repository, not pages of the site. */
const NOT_PAGES = new Set(['readme.md', 'agents.md', 'claude.md', 'contributing.md', 'changelog.md', 'license.md']);

/** Every Markdown/MDX page file under the docs root, relative with `/` separators, sorted. */
export async function listPageFiles(docsRoot: string): Promise<string[]> {
  const entries = await fs.readdir(docsRoot, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !PAGE_FILE.test(entry.name)) continue;
    const rel = path.relative(docsRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (rel.split('/').some((part) => SKIPPED_DIRS.has(part) || part.startsWith('.'))) continue;
    if (!rel.includes('/') && NOT_PAGES.has(rel.toLowerCase())) continue;
    files.push(rel);
  }
  return files.sort();
}

/** Whether a domain's source is a git remote (URL, scp-style, or a bare repository on disk) rather than a folder. */
async function isGitSource(source: string): Promise<boolean> {
  if (/^(https?|ssh|git|file):\/\//.test(source) || /^[\w.-]+@[\w.-]+:/.test(source)) return true;
  try {
    await fs.access(path.join(source, 'HEAD'));
    await fs.access(path.join(source, 'objects'));
    return true;
  } catch {
    return false;
  }
}

const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };

async function git(args: string[], cwd?: string): Promise<void> {
  await run('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, maxBuffer: 16 * 1024 * 1024 });
}

/**
 * The folder to read a domain's pages from. A git source is fetched shallow
 * into `<cacheDir>/<hash of the source>` (fetched again on later runs); a
 * folder is read in place. `docsPath` is the docs folder inside the source.
 * The URL is passed on each fetch and never stored as a remote, so
 * credentials in it do not land in the clone's git config.
 */
export async function checkoutDocs(source: string, branch: string | undefined, docsPath: string, cacheDir: string): Promise<string> {
  let root = source;
  if (await isGitSource(source)) {
    root = path.join(cacheDir, createHash('sha256').update(`${source}#${branch ?? ''}`).digest('hex').slice(0, 16));
    const initialised = await fs.access(path.join(root, '.git')).then(() => true, () => false);
    if (!initialised) {
      await fs.rm(root, { recursive: true, force: true });
      await fs.mkdir(root, { recursive: true });
      await git(['init', '-q'], root);
    }
    await git(['fetch', '-q', '--depth', '1', '--no-tags', '--', source, branch ?? 'HEAD'], root);
    await git(['checkout', '-q', '-f', '--detach', 'FETCH_HEAD'], root);
    await git(['clean', '-q', '-f', '-d', '-x'], root);
  }
  return path.join(root, docsPath);
}
