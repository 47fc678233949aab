import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './services.js';

const run = promisify(execFile);

export interface DocsRepoOptions {
  /** How many generated pages (`page-1.mdx` … under the docs folder). */
  pages?: number;
  /** Writes a Mintlify `docs.json` listing every generated page. */
  withNav?: boolean;
  /** Writes `mint.json` instead of `docs.json` (the older Mintlify file). */
  navFile?: 'docs.json' | 'mint.json';
  /** Folder of the docs inside the repository ('' for the root). */
  docsPath?: string;
  /** Default branch name. */
  branch?: string;
  /** Extra files, repository-relative path → contents (AGENTS.md, broken pages…). */
  files?: Record<string, string>;
  /** Writes an AGENTS.md with house-style instructions. */
  withAgentsMd?: boolean;
}

export interface DocsRepo {
  /** A real bare repository on disk: what a project's `repository` points at. */
  bareDir: string;
  /** The clone the repository was seeded from (tests may commit more and push). */
  seedDir: string;
  branch: string;
  docsPath: string;
  /** Page paths relative to the docs root, e.g. `page-1.mdx`. */
  pages: string[];
  /** Runs git in a directory with a fixed identity; returns trimmed stdout. */
  git(cwd: string, ...args: string[]): Promise<string>;
  /** Contents of a file on a branch of the bare repository, or undefined. */
  readFile(branch: string, repoPath: string): Promise<string | undefined>;
  /** Branch tip sha in the bare repository, or undefined when the branch does not exist. */
  head(branch: string): Promise<string | undefined>;
}

const identity = {
  GIT_AUTHOR_NAME: 'Docs Seed',
  GIT_AUTHOR_EMAIL: 'seed@example.com',
  GIT_COMMITTER_NAME: 'Docs Seed',
  GIT_COMMITTER_EMAIL: 'seed@example.com',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
};

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...identity },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}

function page(i: number, total: number): string {
  const next = i < total ? `\n\nContinue with [page ${i + 1}](./page-${i + 1}).` : '';
  return [
    '---',
    `title: Page ${i}`,
    `description: Generated page number ${i}`,
    '---',
    '',
    `# Page ${i}`,
    '',
    `This page explains topic ${i} of the product. It has a few paragraphs so that search and edits have text to work on.`,
    '',
    '## Setup',
    '',
    `Install the widget ${i} with the command line and configure it in the dashboard.${next}`,
    '',
  ].join('\n');
}

/** Creates a real bare git repository with generated docs pages, ready to be a project's repository. */
export async function createDocsRepo(opts: DocsRepoOptions = {}): Promise<DocsRepo> {
  const root = await tempDir('quire-docs-repo-');
  const bareDir = path.join(root, 'docs.git');
  const seedDir = path.join(root, 'seed');
  const branch = opts.branch ?? 'main';
  const docsPath = opts.docsPath ?? '';
  const total = opts.pages ?? 3;
  const pages = Array.from({ length: total }, (_, k) => `page-${k + 1}.mdx`);

  await fs.mkdir(seedDir, { recursive: true });
  await git(root, 'init', '-q', '--bare', `--initial-branch=${branch}`, bareDir);
  await git(seedDir, 'init', '-q', `--initial-branch=${branch}`);
  const files: Record<string, string> = {};
  pages.forEach((p, k) => (files[path.posix.join(docsPath, p)] = page(k + 1, total)));
  if (opts.withNav) {
    const nav = { name: 'Test Docs', navigation: [{ group: 'Guides', pages: pages.map((p) => p.replace(/\.mdx$/, '')) }] };
    files[path.posix.join(docsPath, opts.navFile ?? 'docs.json')] = JSON.stringify(nav, null, 2) + '\n';
  }
  if (opts.withAgentsMd) files['AGENTS.md'] = '# Agent notes\n\nWrite in British English. Keep headings in sentence case.\n';
  Object.assign(files, opts.files ?? {});
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(seedDir, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
  await git(seedDir, 'add', '-A');
  await git(seedDir, 'commit', '-q', '-m', 'Seed docs');
  await git(seedDir, 'remote', 'add', 'origin', bareDir);
  await git(seedDir, 'push', '-q', 'origin', branch);

  return {
    bareDir,
    seedDir,
    branch,
    docsPath,
    pages,
    git,
    async readFile(ref, repoPath) {
      return git(bareDir, 'show', `${ref}:${repoPath}`).catch(() => undefined);
    },
    async head(ref) {
      return git(bareDir, 'rev-parse', '--verify', '-q', `refs/heads/${ref}`).catch(() => undefined);
    },
  };
}
