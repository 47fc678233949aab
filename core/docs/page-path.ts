import fs from 'node:fs/promises';
import path from 'node:path';

/** Files Mintlify builds into pages. */
export const PAGE_FILE = /\.(md|mdx)$/i;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'snippets', '_snippets']);
/** Files at the docs root that are about the repository, not pages of the site. */
const NOT_PAGES = new Set(['readme.md', 'agents.md', 'claude.md', 'contributing.md', 'changelog.md', 'license.md']);

/**
 * `/guides/quickstart` from `guides/quickstart/`, `/guides/quickstart.mdx`, `guides/index.md` or `/`.
 * In Unicode's composed form (NFC): a file named on macOS (decomposed, `e` + U+0301) is the page
 * `docs.json` lists composed (`é`), and a reader's URL finds it in either form.
 */
export function normalisePagePath(raw: string): string {
  const trimmed = raw.normalize('NFC').trim().replace(/[?#].*$/, '').replace(/\.(mdx?|markdown)$/i, '');
  const parts = trimmed.split('/').filter((p) => p.length > 0 && p !== '.');
  if (parts[parts.length - 1] === 'index') parts.pop();
  return `/${parts.join('/')}`;
}

/** The URL path of a docs file: no extension, `index` → its folder, `/` for the root index. */
export function pagePathOf(file: string): string {
  return normalisePagePath(file);
}

/** Whether a docs-relative file is a page of the site (not a snippet, not a repository file). */
export function isPageFile(rel: string): boolean {
  if (!PAGE_FILE.test(rel)) return false;
  const parts = rel.split('/');
  if (parts.some((part) => SKIPPED_DIRS.has(part) || part.startsWith('.'))) return false;
  return parts.length > 1 || !NOT_PAGES.has(rel.toLowerCase());
}

/** Which of two files of one page path is the page: `x.mdx`, then `x.md`, then `x/index.mdx`, then `x/index.md`. */
function pageFileRank(file: string): number {
  return (/(^|\/)index\.mdx?$/i.test(file) ? 2 : 0) + (/\.md$/i.test(file) ? 1 : 0);
}

/**
 * Every page file under the docs root, relative with `/` separators, sorted: one per page path.
 * Two files of one path (`guide.mdx` and `guide/index.mdx`, `a.md` and `a.mdx`) would each index
 * as the page in turn, run after run; the first by `pageFileRank` is the page.
 */
export async function listPageFiles(docsRoot: string): Promise<string[]> {
  const entries = await fs.readdir(docsRoot, { recursive: true, withFileTypes: true });
  const byPath = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const rel = path.relative(docsRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!isPageFile(rel)) continue;
    const page = pagePathOf(rel);
    const held = byPath.get(page);
    if (held === undefined || pageFileRank(rel) < pageFileRank(held) || (pageFileRank(rel) === pageFileRank(held) && rel < held)) byPath.set(page, rel);
  }
  return [...byPath.values()].sort();
}

/**
 * Whether a docs-relative page reference (a navigation entry or an internal
 * link, with or without extension, or a folder with an index) names a page file.
 */
export async function pageFileExists(docsRoot: string, ref: string): Promise<boolean> {
  const base = path.join(docsRoot, ref.replace(/^\/+|\/+$/g, ''));
  // A reference climbing out of the docs (`../../etc/passwd`) names no page, whatever is there.
  if (path.relative(docsRoot, base).startsWith('..')) return false;
  const candidates = [base, `${base}.mdx`, `${base}.md`, path.join(base, 'index.mdx'), path.join(base, 'index.md'), path.join(base, 'README.md')];
  for (const candidate of candidates) {
    const isFile = await fs.stat(candidate).then((s) => s.isFile(), () => false);
    if (isFile) return true;
  }
  return false;
}
