import fs from 'node:fs/promises';
import path from 'node:path';
import {
  checkMdxGrammar,
  isMdxFile,
  NavigationFileError,
  PAGE_FILE,
  readFrontmatter,
  pageFileExists,
  PageSyntaxError,
  parsePage,
  readNavigation,
  type PageLink,
} from '../../core/docs/index.js';
import { readResolved } from './confined-files.js';
import { resolveToolPath, ToolError, type DocsRoots } from './paths.js';

/**
 * A changed page's text, read without following a link out of the workspace: undefined when it is
 * gone (deleted, moved away), and what is wrong with it when it is there but cannot be read as text
 * (a page of binary bytes is not skipped: it would be pushed unchecked).
 */
async function readChangedPage(roots: DocsRoots, rel: string): Promise<{ text: string } | { problem: string } | undefined> {
  const full = await resolveToolPath(roots, rel).catch(() => undefined);
  if (full === undefined || !(await fs.lstat(full).then((s) => s.isFile(), () => false))) return undefined;
  try {
    return { text: await readResolved(full, rel) };
  } catch (err) {
    return { problem: err instanceof ToolError ? err.message : `${rel} could not be read` };
  }
}

/** Internal links only: no scheme, no protocol-relative URLs, no pure anchors. */
function internalTarget(url: string): string | undefined {
  if (url === '' || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  let target: string;
  try {
    target = decodeURI(url.split('#')[0]!.split('?')[0]!);
  } catch {
    return url;
  }
  return target === '' ? undefined : target;
}

async function checkLinks(roots: DocsRoots, rel: string, links: PageLink[]): Promise<string[]> {
  const errors: string[] = [];
  for (const link of links) {
    const target = internalTarget(link.url);
    if (!target) continue;
    const ref = target.startsWith('/') ? target.slice(1) : path.posix.join(path.posix.dirname(rel), target);
    const where = `${rel}:${link.line}`;
    if (ref.startsWith('..')) {
      errors.push(`${where}: link ${link.url} points outside the docs`);
    } else if (!(await pageFileExists(roots.docsRoot, ref))) {
      errors.push(`${where}: link ${link.url} points at a page that does not exist`);
    }
  }
  return errors;
}

/** The site's navigation file (the one the indexer reads too): valid JSON, and every page entry names a file. */
async function checkNav(roots: DocsRoots): Promise<string[]> {
  const navigation = await readNavigation(roots.docsRoot).catch((err: unknown) => {
    if (err instanceof NavigationFileError) return err;
    throw err;
  });
  if (navigation instanceof NavigationFileError) return [navigation.message];
  const errors: string[] = [];
  for (const ref of navigation?.refs ?? []) {
    if (!(await pageFileExists(roots.docsRoot, ref)))
      errors.push(`${navigation?.file}: navigation entry "${ref}" points at a page that does not exist`);
  }
  return errors;
}

/**
 * Parses a page as the indexer does, then holds MDX to the compiler's stricter grammar.
 * Broken frontmatter does not stop the body's check, so one fix round can see both.
 */
async function checkPage(roots: DocsRoots, rel: string, text: string): Promise<string[]> {
  const head = readFrontmatter(text);
  const errors = head.problem ? [`${rel}:${head.problem.line}: ${head.problem.message}`] : [];
  try {
    const page = parsePage(rel, text, { frontmatter: {}, body: head.body, bodyLine: head.bodyLine });
    const grammar = isMdxFile(rel) ? checkMdxGrammar(text) : undefined;
    if (grammar) return [...errors, `${rel}${grammar.line ? `:${grammar.line}` : ''}: ${grammar.reason}`];
    return [...errors, ...(await checkLinks(roots, rel, page.links()))];
  } catch (err) {
    if (err instanceof PageSyntaxError) return [...errors, `${rel}:${err.line}: ${err.reason}`];
    throw err;
  }
}

/**
 * Validates the changed docs-relative files: each Markdown/MDX page parses, its frontmatter is YAML,
 * its internal links resolve; and the site's navigation file lists only existing pages.
 */
export async function validateChanges(roots: DocsRoots, changed: string[]): Promise<string[]> {
  const errors: string[] = [];
  for (const rel of changed) {
    if (!PAGE_FILE.test(rel)) continue;
    const page = await readChangedPage(roots, rel);
    if (page === undefined) continue;
    if ('problem' in page) errors.push(page.problem);
    else errors.push(...(await checkPage(roots, rel, page.text)));
  }
  if (changed.length > 0) errors.push(...(await checkNav(roots)));
  return firstProblems(errors);
}

/** Problems one validation reports: enough to fix in a round, few enough for a prompt, a commit message and a pull request. */
export const MAX_PROBLEMS = 50;
/** Characters of one problem's text. */
const MAX_PROBLEM_CHARS = 500;

/** The first MAX_PROBLEMS problems, each bounded, and a last line counting the rest. */
function firstProblems(errors: string[]): string[] {
  const shown = errors.slice(0, MAX_PROBLEMS).map((e) => (e.length > MAX_PROBLEM_CHARS ? `${e.slice(0, MAX_PROBLEM_CHARS - 1)}…` : e));
  if (errors.length > MAX_PROBLEMS) shown.push(`…and ${errors.length - MAX_PROBLEMS} more problem(s): fix these, then validate again to see the rest`);
  return shown;
}
