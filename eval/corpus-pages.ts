import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { normalisePagePath } from '../core/retrieval/index.js';

/** A whole page as the baseline sees it: its title and its text with snippets inlined. */
export interface WholePage {
  path: string;
  title: string;
  body: string;
}

const PAGE_FILE = /\.mdx?$/i;
/** Folders of reusable fragments (Mintlify snippets), not pages. */
const FRAGMENT_DIRS = new Set(['snippets', '_snippets', 'node_modules']);
const REPO_FILES = new Set(['readme.md', 'contributing.md', 'license.md']);
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const IMPORT = /^import\s+(\w+)\s+from\s+['"]([^'"]+)['"];?\s*$/gm;

/**
 * Every Markdown/MDX file of a docs folder except snippets, read whole. Kept
 * apart from Quire's file listing on purpose: the baseline knows nothing of
 * navigation or searchability and must not move when Quire's rules change.
 */
export async function readWholePages(docsRoot: string): Promise<WholePage[]> {
  const entries = await fs.readdir(docsRoot, { recursive: true, withFileTypes: true });
  const pages: WholePage[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !PAGE_FILE.test(entry.name)) continue;
    const rel = path.relative(docsRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const parts = rel.split('/');
    if (parts.some((p) => FRAGMENT_DIRS.has(p) || p.startsWith('.'))) continue;
    if (parts.length === 1 && REPO_FILES.has(rel.toLowerCase())) continue;
    pages.push(await readWholePage(docsRoot, rel));
  }
  return pages.sort((a, b) => a.path.localeCompare(b.path));
}

async function readWholePage(docsRoot: string, rel: string): Promise<WholePage> {
  const { frontmatter, body } = splitFrontmatter(await fs.readFile(path.join(docsRoot, rel), 'utf8'));
  const text = await inlineSnippets(docsRoot, body);
  const heading = /^#\s+(.+)$/m.exec(body)?.[1];
  const title = stringOf(frontmatter.title) ?? heading ?? path.basename(rel).replace(PAGE_FILE, '');
  const description = stringOf(frontmatter.description);
  return { path: normalisePagePath(rel), title, body: description ? `${description}\n${text}` : text };
}

function splitFrontmatter(source: string): { frontmatter: Record<string, unknown>; body: string } {
  const match = FRONTMATTER.exec(source);
  if (!match) return { frontmatter: {}, body: source };
  let parsed: unknown;
  try {
    parsed = YAML.parse(match[1] ?? '');
  } catch {
    parsed = undefined;
  }
  const frontmatter = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
  return { frontmatter, body: source.slice(match[0].length) };
}

/** A snippet's text is part of every page that imports it, as on the rendered site. */
async function inlineSnippets(docsRoot: string, body: string): Promise<string> {
  const snippets: string[] = [];
  for (const [, , from] of body.matchAll(IMPORT)) {
    if (!from || !PAGE_FILE.test(from)) continue;
    const text = await fs.readFile(path.join(docsRoot, from.replace(/^\//, '')), 'utf8').catch(() => '');
    snippets.push(splitFrontmatter(text).body);
  }
  return [body.replace(IMPORT, ''), ...snippets].join('\n');
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
