import type { DocIndex } from './types.js';

/**
 * The write side of the retrieval port: what indexing hands a store. Both
 * stores keep whole pages (for `getPage` and incremental re-indexing by hash)
 * beside their chunks.
 */

/** Markers a page carries from its frontmatter and navigation; its chunks inherit them. */
export interface PageMarkers {
  version?: string;
  language?: string;
  tag?: string;
  /** Access groups; empty means every reader may see the page. */
  groups: string[];
}

export interface IndexedChunk extends PageMarkers {
  path: string;
  /** Heading anchor (github-slugger), '' for the top of the page. */
  anchor: string;
  title: string;
  breadcrumb: string[];
  /** Text of the chunk, MDX markup removed. */
  content: string;
  /** Text of the headings in the breadcrumb below the title; weighs more than the body. */
  headings: string;
  /** Dense vector of `embeddingText(chunk)`, when indexing with an embedding model. */
  vector?: number[];
  /**
   * The language whose stemmer cut the chunk's words into its terms (`stemmingLanguage` of the page's
   * own language, else the domain's: `de`); absent for English and languages without a stemmer.
   */
  stemming?: string;
}

export interface IndexedPage extends PageMarkers {
  path: string;
  title: string;
  description?: string;
  /** Navigation sections from the outermost in (`['Guides', 'Deploy']`), when the navigation lists the page. */
  sections?: string[];
  /** Hash of everything the page's chunks derive from (source text, nav entry, options). */
  hash: string;
  /** Markdown body without frontmatter. */
  content: string;
  chunks: IndexedChunk[];
}

export interface PageChanges {
  upserts: IndexedPage[];
  /** Paths of pages that left the source. */
  removals: string[];
}

export interface DocIndexWriter {
  /** Path → content hash of every page the store holds for the domain. */
  pageHashes(domainId: string): Promise<Map<string, string>>;
  /** Applies one batch of changes; readers see all of it or none of it. */
  applyChanges(domainId: string, changes: PageChanges): Promise<void>;
  /**
   * Removes everything the store holds for the domain (its files or its points) and what this
   * process keeps of it in memory; a domain never indexed, or dropped already, is no error.
   */
  dropDomain(domainId: string): Promise<void>;
  /** Forgets what this process keeps of the domain in memory, leaving the store alone (another process dropped it). */
  forgetDomain(domainId: string): void;
}

export type WritableDocIndex = DocIndex & DocIndexWriter;

export { normalisePagePath } from '../docs/index.js';
