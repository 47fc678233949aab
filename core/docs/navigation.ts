import fs from 'node:fs/promises';
import path from 'node:path';
import { normalisePagePath } from './page-path.js';

/** The site configuration files Mintlify reads, in order: the first one present is the site's. */
export const NAV_FILES = ['docs.json', 'mint.json'] as const;
export type NavFile = (typeof NAV_FILES)[number];

/** What the navigation says about one page. */
export interface NavEntry {
  title?: string;
  /** Sidebar sections from the outermost in, e.g. ['Guides', 'Deploy']. */
  sections: string[];
  version?: string;
  language?: string;
  /** Under a hidden tab or group (or a hidden page object). */
  hidden: boolean;
  /** Under a hidden version, language, product, anchor, dropdown or menu item: `searchable` cannot bring it back. */
  locked: boolean;
  /** The nearest `searchable` set on an enclosing tab or group. */
  searchable?: boolean;
}

export interface SiteNavigation {
  file: NavFile;
  /** `seo.indexing: "all"` (docs.json) or `seo.indexHiddenPages: true` (mint.json): hidden pages are searchable too. */
  indexing: 'navigable' | 'all';
  pages: Map<string, NavEntry>;
  /** Every page reference in the navigation as written (for checks that each names a file). */
  refs: string[];
}

/** A navigation file that is not a JSON object. */
export class NavigationFileError extends Error {
  override name = 'NavigationFileError';
}

type Kind = 'tab' | 'group' | 'other';
const LABELS = ['group', 'tab', 'anchor', 'dropdown', 'product', 'item'] as const;
const CONTAINERS = ['global', 'products', 'versions', 'languages', 'tabs', 'anchors', 'dropdowns', 'menu', 'groups', 'pages'] as const;
/** `GET /users` or `openapi.json POST /users`: an endpoint page generated from an OpenAPI file, not a file of its own. */
const OPENAPI_OPERATION = /(^|\s)(get|post|put|patch|delete|head|options|trace|webhook)\s+\S/i;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

type Scope = Omit<NavEntry, 'title'>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The largest navigation file read: far beyond any site's, and bounded. */
export const MAX_NAVIGATION_BYTES = 10 * 1024 * 1024;

/**
 * Reads the site's navigation (`docs.json`, else `mint.json`) from the docs root; undefined when
 * neither exists. Only a regular file of the repository is read, as pages are: a link (say to a
 * file of the machine) or a device is refused, never followed, and so is a file over the bound.
 */
export async function readNavigation(docsRoot: string): Promise<SiteNavigation | undefined> {
  for (const file of NAV_FILES) {
    const where = path.join(docsRoot, file);
    const stat = await fs.lstat(where).catch(() => undefined);
    if (!stat) continue;
    if (!stat.isFile()) throw new NavigationFileError(`${file}: not a regular file (a link, a folder or a device); the navigation must be a file of the repository itself`);
    if (stat.size > MAX_NAVIGATION_BYTES) throw new NavigationFileError(`${file}: ${stat.size} bytes, over the ${MAX_NAVIGATION_BYTES} this reads`);
    return parseNavigation(file, await fs.readFile(where, 'utf8'));
  }
  return undefined;
}

/** Parses a navigation file's text; throws NavigationFileError when it is not a JSON object. */
export function parseNavigation(file: NavFile, text: string): SiteNavigation {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (err) {
    throw new NavigationFileError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isRecord(config)) throw new NavigationFileError(`${file}: not a JSON object`);
  const site: SiteNavigation = { file, indexing: indexingOf(file, config.seo), pages: new Map(), refs: [] };
  walk(config.navigation, { sections: [], hidden: false, locked: false }, site);
  if (file === 'mint.json') addMintTabs(config, site);
  return site;
}

function indexingOf(file: NavFile, seo: unknown): SiteNavigation['indexing'] {
  if (!isRecord(seo)) return 'navigable';
  if (file === 'docs.json') return seo.indexing === 'all' ? 'all' : 'navigable';
  return seo.indexHiddenPages === true ? 'all' : 'navigable';
}

/**
 * Versions, languages, products, tabs, anchors, dropdowns, menus and groups
 * nest in any order, so the walk carries a scope down and records each page
 * reference it meets: `pages` strings, page objects, group `root`s and
 * internal `href`s of tabs and anchors.
 */
function walk(node: unknown, scope: Scope, site: SiteNavigation): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, scope, site);
    return;
  }
  if (typeof node === 'string') {
    addPage(site, node, undefined, scope);
    return;
  }
  if (!isRecord(node)) return;
  const label = LABELS.map((key) => str(node[key])).find(Boolean);
  const kind: Kind = str(node.group) ? 'group' : str(node.tab) ? 'tab' : 'other';
  const hidden = node.hidden === true;
  const inner: Scope = {
    sections: label ? [...scope.sections, label] : scope.sections,
    version: str(node.version) ?? scope.version,
    language: str(node.language) ?? scope.language,
    // Hidden tabs and groups may opt back into search with `searchable`; other containers may not.
    hidden: scope.hidden || (hidden && kind !== 'other') || (hidden && str(node.page) !== undefined),
    locked: scope.locked || (hidden && kind === 'other' && str(node.page) === undefined),
    searchable: kind !== 'other' && typeof node.searchable === 'boolean' ? node.searchable : scope.searchable,
  };
  const page = str(node.page);
  if (page) addPage(site, page, str(node.title), inner);
  const root = str(node.root);
  if (root) addPage(site, root, undefined, inner);
  const href = str(node.href);
  if (href && !EXTERNAL.test(href) && !href.startsWith('//')) addPage(site, href, undefined, inner);
  for (const key of CONTAINERS) if (key in node) walk(node[key], inner, site);
}

/** Visible beats searchable-hidden beats hidden beats locked, when a page is listed twice. */
function rank(entry: Scope): number {
  if (entry.locked) return 0;
  if (!entry.hidden && entry.searchable !== false) return 3;
  return entry.searchable === true ? 2 : 1;
}

function addPage(site: SiteNavigation, ref: string, title: string | undefined, scope: Scope): void {
  if (EXTERNAL.test(ref) || ref.startsWith('//') || OPENAPI_OPERATION.test(ref)) return;
  site.refs.push(ref);
  const key = normalisePagePath(ref);
  const existing = site.pages.get(key);
  if (existing && rank(existing) > rank(scope)) return;
  if (existing && rank(existing) === rank(scope)) {
    // One page in two versions (or languages) is in both: it carries none, as a page of every version does.
    if (existing.version !== scope.version) delete existing.version;
    if (existing.language !== scope.language) delete existing.language;
    return;
  }
  site.pages.set(key, {
    ...(title ? { title } : {}),
    sections: scope.sections,
    ...(scope.version ? { version: scope.version } : {}),
    ...(scope.language ? { language: scope.language } : {}),
    hidden: scope.hidden,
    locked: scope.locked,
    ...(scope.searchable !== undefined ? { searchable: scope.searchable } : {}),
  });
}

/** mint.json tabs and anchors own the pages under their `url` folder: their names lead the sections. */
function addMintTabs(config: Record<string, unknown>, site: SiteNavigation): void {
  for (const key of ['tabs', 'anchors']) {
    const list = config[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const name = isRecord(item) ? str(item.name) : undefined;
      const url = isRecord(item) ? str(item.url) : undefined;
      if (!name || !url || EXTERNAL.test(url)) continue;
      const prefix = normalisePagePath(url);
      for (const [pagePath, entry] of site.pages) {
        if (pagePath === prefix || pagePath.startsWith(`${prefix}/`)) entry.sections = [name, ...entry.sections];
      }
    }
  }
}
