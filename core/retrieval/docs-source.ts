import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { docsFolderIn, runGit, withoutCredentials, type GitOptions } from '../git/index.js';

/** A folder source that is not a folder on the server; the message names no path, as it may reach an answer. */
export class SourceFolderMissingError extends Error {
  override name = 'SourceFolderMissingError';
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

/**
 * The folder to read a domain's pages from. A git source is fetched shallow
 * into `<cacheDir>/<hash of the source>` (fetched again on later runs); a
 * folder is read in place (`SourceFolderMissingError` when it is not there). `docsPath` is the docs folder inside the source.
 * `cacheDir` is the domain's own: domains on one repository never share a
 * checkout a run of another could move under it. Credentials in the source
 * URL travel in the fetch's environment only, never on argv or in the clone's
 * git config. `signal` ends a fetch under way (the run cancelled or timed out);
 * `followRedirects: false` makes a redirect an error and `pin` connects to checked addresses (private targets refused).
 */
export async function checkoutDocs(
  source: string,
  branch: string | undefined,
  docsPath: string,
  cacheDir: string,
  opts: Pick<GitOptions, 'signal' | 'followRedirects' | 'pin'> = {},
): Promise<string> {
  const { signal } = opts;
  let root = source;
  if (await isGitSource(source)) {
    const { url, credentials } = withoutCredentials(source);
    root = path.join(cacheDir, createHash('sha256').update(`${source}#${branch ?? ''}`).digest('hex').slice(0, 16));
    const git = (args: string[], auth = {}) => runGit(root, args, { ...auth, ...opts });
    const fresh = async () => {
      await fs.rm(root, { recursive: true, force: true });
      await fs.mkdir(root, { recursive: true });
      await git(['init', '-q']);
    };
    const sync = async () => {
      await git(['fetch', '-q', '--depth', '1', '--no-tags', '--', url, branch ?? 'HEAD'], credentials ? { credentials } : {});
      await git(['checkout', '-q', '-f', '--detach', 'FETCH_HEAD']);
      await git(['clean', '-q', '-f', '-d', '-x']);
    };
    if (!(await fs.access(path.join(root, '.git')).then(() => true, () => false))) await fresh();
    try {
      await sync();
    } catch (err) {
      if (signal?.aborted) throw err;
      // A run stopped mid-command (a worker killed) leaves locks behind (index.lock, shallow.lock) that fail
      // every later one; the checkout is only a cache: start it afresh, once.
      await fresh();
      await sync();
    }
  } else if (!(await fs.stat(source).then((s) => s.isDirectory(), () => false))) {
    throw new SourceFolderMissingError('no such folder, or the worker may not read it');
  }
  return docsFolderIn(root, docsPath);
}

/**
 * The commit the source's branch (the default branch when none is named) is at, read with `git
 * ls-remote` (no fetch): what a poll compares with the commit last indexed. Undefined for a folder
 * source, or a branch the remote does not have. Credentials travel as checkoutDocs sends them.
 */
export async function remoteHead(source: string, branch: string | undefined, cwd: string, opts: Pick<GitOptions, 'signal' | 'followRedirects' | 'pin'> = {}): Promise<string | undefined> {
  if (!(await isGitSource(source))) return undefined;
  const { url, credentials } = withoutCredentials(source);
  const ref = branch ? `refs/heads/${branch}` : 'HEAD';
  const listing = await runGit(cwd, ['ls-remote', '--', url, ref], { ...opts, ...(credentials ? { credentials } : {}) });
  // A pattern matches any ref ending in it (refs/heads/x/refs/heads/main): only the ref itself counts.
  for (const line of listing.split('\n')) {
    const [sha, name] = line.trim().split('\t');
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return undefined;
}

/** The commit a checkout (or a source folder inside a git work tree) is at; undefined for a folder outside git. */
export async function checkedOutCommit(docsRoot: string): Promise<string | undefined> {
  try {
    const sha = (await runGit(docsRoot, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}
