/**
 * The retrieval port shared by the search endpoints, the assistant and the
 * indexing activities. Two stores implement it: the embedded on-disk index
 * (default) and Qdrant (`QDRANT_URL`).
 */

export interface SearchFilter {
  version?: string;
  language?: string;
  tag?: string;
  /** A chunk matches when it has no groups or shares one with this list. */
  groups?: string[];
}

export interface SearchQuery {
  query: string;
  /** Pages to return: results are ranked by page, one page never takes two places. */
  pageSize: number;
  /**
   * Chunks each page may give, best first and side by side (default 1: one
   * result per page). The assistant asks for more as context for the model.
   */
  chunksPerPage?: number;
  scoreThreshold?: number;
  filter?: SearchFilter;
  /** The page the reader is on; its chunks get a small boost. */
  currentPath?: string;
  /**
   * The domain's language (a BCP 47 tag): the query's words are stemmed as that language's, and as
   * the filter's language's too when it names another. Undefined: English only, as the domain's pages.
   */
  language?: string;
}

export interface SearchHit {
  /** The chunk text (Markdown, MDX markup removed). */
  content: string;
  /** URL path of the page, e.g. `/guides/quickstart`. */
  path: string;
  metadata: {
    title: string;
    /** Heading anchor of the chunk, '' for the top of the page. */
    anchor: string;
    /** Heading path from the page title down to the chunk's heading. */
    breadcrumb: string[];
    /** The page's score in [0, 1], shared by every chunk it gives. */
    score: number;
    /** How the search ranked (see `RetrievalMode`): `keyword-fallback` when the embedder did not answer in time. */
    retrieval?: 'hybrid' | 'keyword' | 'keyword-fallback';
    version?: string;
    language?: string;
  };
}

export interface PageContent {
  path: string;
  title: string;
  /** The page's Markdown body without frontmatter. */
  content: string;
  /** Its language (BCP 47, canonical case), when its front matter or navigation gives one. */
  language?: string;
}

/** A page as a listing shows it (llms.txt); `content` only when the listing asked for it. */
export interface PageListing {
  path: string;
  title: string;
  description?: string;
  /** Navigation sections from the outermost in, when the navigation lists the page. */
  sections?: string[];
  /** Access groups; empty means every reader may see the page. */
  groups: string[];
  version?: string;
  language?: string;
  content?: string;
}

/**
 * The words a domain's pages hold, as its keyword index knows them (terms as `tokenise` cuts them, each
 * page's in its language): what tells that no page says a word, so a question about it is not answered
 * from pages that share only its other words.
 */
export interface Vocabulary {
  /** How many pages hold the term; 0 when none does. */
  documentFrequency(term: string): number;
  /** The term pages hold one edit away from it (`enviroment`: `environment`), as the search reads a typo; undefined when none is. */
  nearest(term: string): string | undefined;
}

export interface DocIndex {
  search(domainId: string, query: SearchQuery): Promise<SearchHit[]>;
  /**
   * The domain's vocabulary, from the keyword index its searches use, of only the pages a reader of
   * `groups` may see (as a search's `filter.groups`): a word only hidden pages hold is on no page.
   * Undefined when the store keeps none at hand (Qdrant's sparse vectors answer searches, not
   * look-ups of a word).
   */
  vocabulary(domainId: string, groups?: string[]): Promise<Vocabulary | undefined>;
  getPage(domainId: string, path: string, groups?: string[]): Promise<PageContent | undefined>;
  /** Every page the index holds for the domain, in path order; with `content`, their Markdown too. */
  listPages(domainId: string, options?: { content?: boolean }): Promise<PageListing[]>;
  /** A token that changes whenever the domain's index does: the cache key of anything derived from it. */
  generation(domainId: string): Promise<string>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
