import fs from 'node:fs/promises';
import path from 'node:path';
import { docsFolderIn, DocsFolderOutsideError, GitCommandError, withoutCredentials } from '../../core/git/index.js';
import { printable } from '../../core/jobs/index.js';
import type { Project } from '../../core/tenants/index.js';
import { AGENT_ERROR, permanent } from './errors.js';
import { classifyGitError, runGit, type GitAuth } from './git.js';

/** A job's checkout: a cache any worker can rebuild, reset to the remote branch at each turn. */
export interface Workspace {
  /** Repository root of the checkout. */
  root: string;
  /** Docs root inside it (project.docsPath). */
  docsRoot: string;
  docsPath: string;
  branch: string;
  /** The remote job branch existed before this turn. */
  branchExisted: boolean;
  /** Runs git in the workspace; `input` is its standard input. */
  git(args: string[], input?: string): Promise<string>;
}

const DAY_MS = 86_400_000;

function jobDir(dataDir: string, jobId: string): string {
  // Job ids are opaque; keep only a safe file name so an id can never point outside workspaces/.
  return path.join(dataDir, 'workspaces', jobId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** Marks a checkout as used now: `sweepWorkspaces` goes by it. */
async function markUsed(root: string): Promise<void> {
  const now = new Date();
  await fs.utimes(root, now, now).catch(() => undefined);
}

/**
 * Removes the checkouts no turn has used for `idleDays` (the idle archive's days): by then their
 * jobs are archived and take no more turns, and one that does take a turn clones again. Each turn
 * marks its own checkout as used when it begins. A checkout that cannot be read or removed now is
 * left for the next sweep.
 */
export async function sweepWorkspaces(dataDir: string, idleDays: number, now = Date.now()): Promise<void> {
  const dir = path.join(dataDir, 'workspaces');
  const names = await fs.readdir(dir).catch(() => []);
  for (const name of names) {
    const root = path.join(dir, name);
    const used = await fs.stat(root).then((s) => s.mtimeMs, () => now);
    if (now - used > idleDays * DAY_MS) await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/**
 * Makes the cache match the remote: the job branch when it exists there, otherwise the project's
 * base branch. Anything left in the cache (a crashed turn, another worker's state) is discarded.
 */
export async function prepareWorkspace(opts: {
  dataDir: string;
  jobId: string;
  branch: string;
  project: Project;
  auth: GitAuth;
}): Promise<Workspace> {
  const { project, branch } = opts;
  // Credentials written into the repository URL travel per command like a token, never into .git/config.
  const remote = withoutCredentials(project.repository);
  const auth = remote.credentials && !opts.auth.token ? { ...opts.auth, credentials: remote.credentials } : opts.auth;
  const root = jobDir(opts.dataDir, opts.jobId);
  const git = (args: string[], input?: string) => runGit(root, args, auth, input);
  await markUsed(root);
  if (!(await exists(path.join(root, '.git')))) {
    await fs.rm(root, { recursive: true, force: true });
    await fs.mkdir(root, { recursive: true });
    await git(['init', '-q']);
  }
  // The remote URL, stripped of credentials, is not a secret, so it may live in .git/config.
  await git(['remote', 'remove', 'origin']).catch(() => undefined);
  await git(['remote', 'add', 'origin', remote.url]);

  const heads = await git(['ls-remote', '--heads', 'origin']).catch((err: unknown) => {
    throw classifyGitError(err, project.repository);
  });
  const names = new Set(heads.split('\n').map((l) => l.split('\t')[1]?.replace('refs/heads/', '')));
  if (!names.has(project.branch) && !names.has(branch))
    throw permanent(AGENT_ERROR.repositoryNotFound, `branch ${project.branch} was not found in ${remote.url}`);
  const branchExisted = names.has(branch);
  const wanted = [project.branch, ...(branchExisted ? [branch] : [])].filter((b) => names.has(b));
  await git(['fetch', '-q', '--prune', 'origin', ...wanted.map((b) => `+refs/heads/${b}:refs/remotes/origin/${b}`)]).catch(
    (err: unknown) => {
      throw classifyGitError(err, project.repository);
    },
  );
  const start = branchExisted ? branch : project.branch;
  await git(['checkout', '-q', '-f', '-B', branch, `refs/remotes/origin/${start}`]);
  await git(['reset', '-q', '--hard', `refs/remotes/origin/${start}`]);
  await git(['clean', '-q', '-fdx']);
  const docsPath = project.docsPath.replace(/^\/+|\/+$/g, '');
  const docsRoot = await docsFolderIn(root, docsPath).catch((err: unknown) => {
    throw err instanceof DocsFolderOutsideError ? permanent(AGENT_ERROR.docsFolderOutside, err.message) : err;
  });
  return { root, docsRoot, docsPath, branch, branchExisted, git };
}

/**
 * Whether git leaves `file` (a path in the workspace) out of every commit: a `.gitignore` or
 * `info/exclude` pattern matches it. The tools refuse to write there: `git add -A` would skip the
 * file, and the model would report a page the branch never gets.
 */
export async function isIgnored(ws: Pick<Workspace, 'git'>, file: string): Promise<boolean> {
  try {
    await ws.git(['check-ignore', '-q', '--', file]);
    return true;
  } catch (err) {
    // Exit status 1: no pattern ignores it.
    if (err instanceof GitCommandError && err.exitCode === 1) return false;
    throw err;
  }
}

/** Repository-relative paths with uncommitted changes (added, modified, deleted, renamed). */
export async function changedPaths(ws: Workspace): Promise<string[]> {
  await ws.git(['add', '-A']);
  const out = await ws.git(['diff', '--cached', '--name-only', '--no-renames', '-z']);
  return out.split('\0').filter(Boolean);
}

/** Converts a repository path to one relative to the docs root. */
export function toDocsRelative(ws: Workspace, repoPath: string): string {
  return ws.docsPath ? path.posix.relative(ws.docsPath, repoPath) : repoPath;
}

/** Commits everything staged and pushes the job branch; returns the new commit sha. */
export async function commitAndPush(ws: Workspace, message: string, repository: string): Promise<string> {
  // The message on standard input: it may outgrow what one argument can hold.
  await ws.git(['commit', '-q', '--no-verify', '-F', '-'], printable(message));
  const sha = (await ws.git(['rev-parse', 'HEAD'])).trim();
  await ws.git(['push', '-q', 'origin', `HEAD:refs/heads/${ws.branch}`]).catch((err: unknown) => {
    throw classifyGitError(err, repository);
  });
  return sha;
}
