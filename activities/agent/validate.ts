import fs from 'node:fs/promises';
import path from 'node:path';
import { readResolved } from './confined-files.js';
import { resolveToolPath, type DocsRoots } from './paths.js';
import { parsePage } from './validate-page.js';

const PAGE = /\.mdx?$/;
export const NAV_FILES = ['docs.json', 'mint.json'];

/** A docs file's text, read without following a link out of the workspace; undefined when it cannot be read. */
async function readDocsFile(roots: DocsRoots, rel: string): Promise<string | undefined> {
  const full = await resolveToolPath(roots, rel).catch(() => undefined);
  return full === undefined ? undefined : readResolved(full, rel).catch(() => undefined);
}

async function isFile(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Whether a docs-relative page reference (with or without extension, or a folder) resolves to a file. */
export async function pageExists(docsRoot: string, ref: string): Promise<boolean> {
  const base = path.join(docsRoot, ref);
  const candidates = [base, `${base}.mdx`, `${base}.md`, path.join(base, 'index.mdx'), path.join(base, 'index.md'), path.join(base, 'README.md')];
  for (const c of candidates) if (await isFile(c)) return true;
  return false;
}

/** Internal links only: no scheme, no protocol-relative URLs, no pure anchors. */
function internalTarget(url: string): string | undefined {
  if (url === '' || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  const target = decodeURI(url.split('#')[0]!.split('?')[0]!);
  return target === '' ? undefined : target;
}

async function checkLinks(roots: DocsRoots, rel: string, links: Array<{ url: string; line: number | undefined }>): Promise<string[]> {
  const errors: string[] = [];
  for (const link of links) {
    const target = internalTarget(link.url);
    if (!target) continue;
    const ref = target.startsWith('/') ? target.slice(1) : path.posix.join(path.posix.dirname(rel), target);
    const where = link.line ? `${rel}:${link.line}` : rel;
    if (ref.startsWith('..')) {
      errors.push(`${where}: link ${link.url} points outside the docs`);
    } else if (!(await pageExists(roots.docsRoot, ref.replace(/\/$/, '')))) {
      errors.push(`${where}: link ${link.url} points at a page that does not exist`);
    }
  }
  return errors;
}

/** Every string in any `pages` array of the navigation, recursively (Mintlify docs.json and mint.json shapes). */
export function navPages(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) navPages(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pages' && Array.isArray(value)) {
        for (const item of value) if (typeof item === 'string') out.push(item);
      }
      if (typeof value === 'object') navPages(value, out);
    }
  }
  return out;
}

async function checkNav(roots: DocsRoots): Promise<string[]> {
  const errors: string[] = [];
  for (const name of NAV_FILES) {
    const text = await readDocsFile(roots, name);
    if (text === undefined) continue;
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch (err) {
      errors.push(`${name}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    const navigation = config && typeof config === 'object' && 'navigation' in config ? config.navigation : undefined;
    for (const page of navPages(navigation)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(page)) continue;
      if (!(await pageExists(roots.docsRoot, page.replace(/^\//, ''))))
        errors.push(`${name}: navigation entry "${page}" points at a page that does not exist`);
    }
  }
  return errors;
}

/**
 * Validates the changed docs-relative files: each Markdown/MDX page parses, its frontmatter is YAML,
 * its internal links resolve; and the navigation files list only existing pages.
 */
export async function validateChanges(roots: DocsRoots, changed: string[]): Promise<string[]> {
  const errors: string[] = [];
  for (const rel of changed) {
    if (!PAGE.test(rel)) continue;
    const text = await readDocsFile(roots, rel);
    if (text === undefined) continue; // deleted
    const page = parsePage(rel, text);
    errors.push(...page.errors, ...(await checkLinks(roots, rel, page.links)));
  }
  if (changed.length > 0) errors.push(...(await checkNav(roots)));
  return errors;
}
