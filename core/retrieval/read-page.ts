import { createHash } from 'node:crypto';
import { toString } from 'mdast-util-to-string';
import { chunkPage, DEFAULT_CHUNKING, type ChunkOptions } from './chunk-page.js';
import type { IndexedPage } from './indexed.js';
import { normalisePagePath } from './indexed.js';
import type { NavEntry, Navigation } from './navigation.js';
import { listField, parseMarkdown, stringField } from './parse-markdown.js';

/** One Markdown or MDX file of a docs source, read but not parsed yet. */
export interface SourceFile {
  /** Path relative to the docs root, with `/` separators: `guides/quickstart.mdx`. */
  file: string;
  text: string;
}

/** The URL path of a docs file: no extension, `index` → its folder, `/` for the root index. */
export function pagePathOf(file: string): string {
  return normalisePagePath(file);
}

/**
 * Bumped when chunking changes what it makes of the same page, so the next
 * indexing run redoes every page (2: code fences in MDX components dedented).
 */
const CHUNKING_VERSION = '2';

/** Everything a page's chunks derive from, so an unchanged hash means nothing to redo. */
export function pageHash(source: SourceFile, nav: NavEntry | undefined, includeHidden: boolean): string {
  return createHash('sha256')
    .update(`chunks:${CHUNKING_VERSION}\0`)
    .update(source.file)
    .update('\0')
    .update(source.text)
    .update('\0')
    .update(JSON.stringify(nav ?? null))
    .update(includeHidden ? '\0hidden' : '\0')
    .digest('hex')
    .slice(0, 32);
}

export interface ReadPageOptions {
  navigation: Navigation | undefined;
  includeHidden: boolean;
  chunking?: ChunkOptions;
}

/**
 * Parses a page with its frontmatter and navigation entry and chunks it.
 * Returns undefined for a hidden page (frontmatter `hidden`, a hidden nav
 * group, or absent from a navigation that exists) unless hidden pages are wanted.
 */
export function readPage(source: SourceFile, options: ReadPageOptions): IndexedPage | undefined {
  const path = pagePathOf(source.file);
  const nav = options.navigation?.pages.get(path);
  const { tree, frontmatter, body } = parseMarkdown(source.text, /\.mdx$/i.test(source.file));
  const hidden =
    frontmatter.hidden === true || frontmatter.noindex === true || nav?.hidden === true || (options.navigation !== undefined && !nav);
  if (hidden && !options.includeHidden) return undefined;
  const firstHeading = tree.children.find((n) => n.type === 'heading' && n.depth === 1);
  const title =
    stringField(frontmatter, 'title') ??
    stringField(frontmatter, 'sidebarTitle') ??
    nav?.title ??
    (firstHeading ? toString(firstHeading).trim() : undefined) ??
    (path.split('/').pop() || 'Home');
  const version = stringField(frontmatter, 'version') ?? nav?.version;
  const language = stringField(frontmatter, 'language') ?? stringField(frontmatter, 'lang') ?? nav?.language;
  const tag = stringField(frontmatter, 'tag');
  const description = stringField(frontmatter, 'description');
  const markers = {
    groups: listField(frontmatter, 'groups'),
    ...(version ? { version } : {}),
    ...(language ? { language } : {}),
    ...(tag ? { tag } : {}),
  };
  const chunks = chunkPage({ path, title, tree, source: source.text, ...markers }, options.chunking ?? DEFAULT_CHUNKING);
  // The description and sidebar sections describe the page as a whole: they join its first chunk.
  const intro = [description, nav?.sections.join(' / ')].filter(Boolean).join('\n');
  const first = chunks[0];
  if (intro && first) first.headings = [intro, first.headings].filter(Boolean).join('\n');
  if (chunks.length === 0) {
    chunks.push({ path, anchor: '', title, breadcrumb: [title], headings: intro, content: description ?? title, ...markers });
  }
  return {
    path,
    title,
    ...(description ? { description } : {}),
    hash: pageHash(source, nav, options.includeHidden),
    content: body,
    chunks,
    ...markers,
  };
}
