import fs from 'node:fs/promises';
import path from 'node:path';
import { normalisePagePath } from './indexed.js';

/** What the navigation file says about one page. */
export interface NavEntry {
  title?: string;
  /** Sidebar groups from the outermost in, e.g. ['Guides', 'Deploy']. */
  sections: string[];
  version?: string;
  language?: string;
  hidden: boolean;
}

export interface Navigation {
  file: 'docs.json' | 'mint.json';
  pages: Map<string, NavEntry>;
}

const NAV_FILES = ['docs.json', 'mint.json'] as const;

interface Scope {
  sections: string[];
  version?: string;
  language?: string;
  hidden: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * Reads Mintlify navigation (`docs.json`, else `mint.json`) from the docs root.
 * Versions, languages, tabs, anchors and groups nest in any order, so the walk
 * carries a scope down and records each page reference it meets.
 */
export async function readNavigation(docsRoot: string): Promise<Navigation | undefined> {
  for (const file of NAV_FILES) {
    let text: string;
    try {
      text = await fs.readFile(path.join(docsRoot, file), 'utf8');
    } catch {
      continue;
    }
    const config: unknown = JSON.parse(text);
    if (!isRecord(config)) throw new Error(`${file} is not a JSON object`);
    const pages = new Map<string, NavEntry>();
    walk(config.navigation, { sections: [], hidden: false }, pages);
    return { file, pages };
  }
  return undefined;
}

function walk(node: unknown, scope: Scope, pages: Map<string, NavEntry>): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, scope, pages);
    return;
  }
  if (typeof node === 'string') {
    addPage(pages, node, undefined, scope);
    return;
  }
  if (!isRecord(node)) return;
  const label = str(node.group) ?? str(node.tab) ?? str(node.anchor) ?? str(node.dropdown);
  const inner: Scope = {
    sections: label ? [...scope.sections, label] : scope.sections,
    version: str(node.version) ?? scope.version,
    language: str(node.language) ?? scope.language,
    hidden: scope.hidden || node.hidden === true,
  };
  const page = str(node.page);
  if (page) addPage(pages, page, str(node.title), inner);
  for (const [key, value] of Object.entries(node)) {
    if (Array.isArray(value) || isRecord(value)) walk(value, inner, pages);
    else if (key === 'pages' && typeof value === 'string') addPage(pages, value, undefined, inner);
  }
}

function addPage(pages: Map<string, NavEntry>, ref: string, title: string | undefined, scope: Scope): void {
  // External links in the navigation are not pages of this site.
  if (/^[a-z]+:\/\//i.test(ref)) return;
  const key = normalisePagePath(ref);
  if (pages.has(key)) return;
  pages.set(key, {
    ...(title ? { title } : {}),
    sections: scope.sections,
    ...(scope.version ? { version: scope.version } : {}),
    ...(scope.language ? { language: scope.language } : {}),
    hidden: scope.hidden,
  });
}
