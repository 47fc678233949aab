import type { SearchHit } from '../../core/retrieval/index.js';
import type { Citation } from './answer-writer.js';

/** Sources an answer cites by default: the pages a reader will look at. */
export const MAX_SOURCES = 5;

/**
 * A page scoring below this share of the best page's score is not a source:
 * retrieval always returns its page size, and the tail is mostly noise that
 * a reader would click for nothing. Relative, because the score scale moves
 * with the query's terms and the engine (keyword or hybrid).
 */
export const RELATIVE_SCORE_FLOOR = 0.35;

/**
 * The public URL of a page: the domain's site and the page path, each segment percent-encoded, so
 * a page whose file is named with a space (or `(`, `%`…) still makes a link that works in Markdown.
 */
export function pageUrl(baseUrl: string, path: string): string {
  const segments = (path.startsWith('/') ? path : `/${path}`).split('/');
  return `${baseUrl.replace(/\/+$/, '')}${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}

/** The public URL of a passage: its page's URL and the heading anchor. */
export function passageUrl(baseUrl: string, hit: Pick<SearchHit, 'path' | 'metadata'>): string {
  const anchor = hit.metadata.anchor ? `#${hit.metadata.anchor}` : '';
  return `${pageUrl(baseUrl, hit.path)}${anchor}`;
}

/**
 * The hits of the pages worth citing, in rank order: at most `maxPages`
 * pages, none below the relevance floor. Hits come grouped by page with the
 * page's score on each (see `SearchQuery.chunksPerPage`).
 */
export function relevantHits(hits: SearchHit[], maxPages: number): SearchHit[] {
  const best = hits[0]?.metadata.score ?? 0;
  const floor = best * RELATIVE_SCORE_FLOOR;
  const pages = new Set<string>();
  return hits.filter((hit) => {
    if (!pages.has(hit.path)) {
      if (pages.size >= maxPages || hit.metadata.score < floor) return false;
      pages.add(hit.path);
    }
    return true;
  });
}

/**
 * One citation per page, in the order the pages first appear: `[n]` in the
 * answer is `src_n` in the stream. A page's URL points at its best section,
 * the first of its passages.
 */
export function citationsFor(baseUrl: string, passages: SearchHit[]): Citation[] {
  const byPath = new Map<string, Citation>();
  for (const hit of passages) {
    if (byPath.has(hit.path)) continue;
    byPath.set(hit.path, { id: `src_${byPath.size + 1}`, url: passageUrl(baseUrl, hit), title: hit.metadata.title || hit.path, path: hit.path });
  }
  return [...byPath.values()];
}

/** The citation number (1-based) of each page path. */
export function citationNumbers(passages: Array<Pick<SearchHit, 'path'>>): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const hit of passages) if (!numbers.has(hit.path)) numbers.set(hit.path, numbers.size + 1);
  return numbers;
}
