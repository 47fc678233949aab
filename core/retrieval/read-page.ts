import { createHash } from 'node:crypto';
import {
  isMdxFile,
  listField,
  pagePathOf,
  parsePage,
  readFrontmatter,
  searchability,
  stringField,
  type IndexScope,
  type NavEntry,
  type PageHead,
  type SiteNavigation,
  withoutComments,
} from '../docs/index.js';
import { chunkPage, DEFAULT_CHUNKING, type ChunkOptions } from './chunk-page.js';
import type { IndexedPage } from './indexed.js';
import { canonicalLanguage } from './filter.js';
import { stemmingLanguage } from './stemmers.js';
import { TOKENISER_REVISION } from './tokenise.js';

export { pagePathOf };

/** One Markdown or MDX file of a docs source, read but not parsed yet. */
export interface SourceFile {
  /** Path relative to the docs root, with `/` separators: `guides/quickstart.mdx`. */
  file: string;
  text: string;
}

export interface ReadPageOptions {
  navigation: SiteNavigation | undefined;
  scope: IndexScope;
  chunking?: ChunkOptions;
  /** The embedder whose vectors the chunks get (`Embedder.id`); undefined when keyword only. */
  vectors?: string | undefined;
  /**
   * The domain's language (a BCP 47 tag). When given, a page's words are stemmed as its own language's
   * (frontmatter `language` or `lang`, or the navigation's language) and, for a page that states none,
   * as this language's. Undefined: every page is stemmed as English.
   */
  language?: string | undefined;
}

/**
 * Raised whenever reading a page changes what is stored of it beyond its terms (its markers, such as
 * the language's case; its text, such as the comments left out; its chunks, such as a sentence
 * longer than a chunk now cut): page hashes include it, so the next index run re-reads every page.
 */
const READER_REVISION = 2;

/** Everything a page's chunks (and whether it is indexed at all) derive from, so an unchanged hash means nothing to redo. */
export function pageHash(source: SourceFile, options: ReadPageOptions): string {
  const entry = options.navigation?.pages.get(pagePathOf(source.file));
  return createHash('sha256')
    .update(source.file)
    .update('\0')
    .update(source.text)
    .update('\0')
    .update(
      JSON.stringify([
        entry ?? null,
        options.navigation?.file ?? null,
        options.navigation?.indexing ?? null,
        options.scope,
        // Stored terms derive from the tokeniser: one that cuts words otherwise rewrites every page.
        TOKENISER_REVISION,
        // And what else is stored of a page (its markers, its text) from this reader: a change to it does too.
        READER_REVISION,
        // Vectors derive from the model: a new model (or none) rewrites every page. Keyword-only hashes stay as they were.
        ...(options.vectors ? [options.vectors] : []),
        // Terms derive from the domain's language too: setting or changing it rewrites every page. English domains' hashes stay as they were.
        ...(options.language ? [{ language: options.language }] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 32);
}

/**
 * Reads a page with its frontmatter and navigation entry and chunks it.
 * Returns undefined for a page the site keeps out of search (see
 * `searchability`); that is decided on the frontmatter alone, before the body
 * is parsed. Throws PageSyntaxError for a page that cannot be read.
 */
export function readPage(source: SourceFile, options: ReadPageOptions): IndexedPage | undefined {
  const path = pagePathOf(source.file);
  const nav = options.navigation?.pages.get(path);
  const head = readFrontmatter(source.text);
  // Frontmatter can only keep a page out: one whose frontmatter cannot be read is out when the navigation alone
  // leaves it out (it leaves the index), and broken otherwise (it keeps its last good version).
  if (!searchability(head.problem ? {} : head.frontmatter, options.navigation, nav, options.scope).searchable) return undefined;
  const { frontmatter, body, blocks } = parsePage(source.file, source.text, head);
  const firstHeading = blocks.find((b) => b.kind === 'heading' && b.depth === 1);
  const title =
    stringField(frontmatter, 'title') ??
    stringField(frontmatter, 'sidebarTitle') ??
    nav?.title ??
    firstHeading?.text ??
    (path.split('/').pop() || 'Home');
  const markers = markersOf(head.frontmatter, nav);
  // A domain with a language opts in: each page is stemmed in its own language, else the domain's. Without one,
  // every page is stemmed as English, as before languages were known, whatever language it states.
  const stemming = options.language ? stemmingLanguage(markers.language ?? options.language) : undefined;
  const chunks = chunkPage({ path, title, blocks, ...markers }, options.chunking ?? DEFAULT_CHUNKING);
  const description = stringField(frontmatter, 'description');
  const keywords = listField(frontmatter, 'keywords');
  // The description, keywords and sidebar sections describe the page as a whole: they join its first chunk.
  const intro = [description, keywords.join(', '), nav?.sections.join(' / ')].filter(Boolean).join('\n');
  const first = chunks[0];
  if (intro && first) first.headings = [intro, first.headings].filter(Boolean).join('\n');
  if (chunks.length === 0) {
    chunks.push({ path, anchor: '', title, breadcrumb: [title], headings: intro, content: description ?? title, ...markers });
  }
  if (stemming) for (const chunk of chunks) chunk.stemming = stemming;
  return {
    path,
    title,
    ...(description ? { description } : {}),
    ...(nav?.sections.length ? { sections: nav.sections } : {}),
    hash: pageHash(source, options),
    // Whole, as get_page and llms-full.txt serve it: without the authors' comments the site never shows.
    content: withoutComments(body, isMdxFile(source.file)).replace(/^\s*\n/, ''),
    chunks,
    ...markers,
  };
}

function markersOf(frontmatter: PageHead['frontmatter'], nav: NavEntry | undefined) {
  const version = stringField(frontmatter, 'version') ?? nav?.version;
  const written = stringField(frontmatter, 'language') ?? stringField(frontmatter, 'lang') ?? nav?.language;
  // In canonical case, as filters are compared: `pt-br` in one place and `pt-BR` in another are one language.
  const language = written ? canonicalLanguage(written) : undefined;
  const tag = stringField(frontmatter, 'tag');
  return {
    groups: listField(frontmatter, 'groups'),
    ...(version ? { version } : {}),
    ...(language ? { language } : {}),
    ...(tag ? { tag } : {}),
  };
}
