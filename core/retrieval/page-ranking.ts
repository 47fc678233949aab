import { visibleTo } from './filter.js';
import { KeywordIndex, type HiddenDocs, type RankedDoc } from './keyword-index.js';
import { pageDocuments, type PageDocuments } from './page-terms.js';
import { resolveQuery, TypoCorrector } from './query-terms.js';
import type { StoredChunk } from './snapshot-file.js';

/** Pages ranked on their own, per page asked for, before their chunks refine the order. */
const RERANKED_PER_PAGE = 2;
/** Sets of hidden pages whose counts are kept (see `hiddenFrom`): a domain's readers come in few sets of groups. */
const HIDDEN_SETS_KEPT = 32;

/** The keyword structures of one domain's snapshot: one index over chunks, one over whole pages. */
export interface KeywordIndexes {
  chunks: KeywordIndex;
  pages: KeywordIndex;
  pageDocs: PageDocuments;
  typos: TypoCorrector;
  /** Pages by their title's words (`titleKey`): a query that is a page's title names that page. */
  titled: Map<string, number[]>;
  /** The pages with access groups, in ascending order, and each one's groups: empty on a site of none. */
  restricted: { pages: Uint32Array; groups: string[][] };
  /** What each set of hidden pages leaves of the indexes, by the pages' ids (see `hiddenFrom`), made on a first search that hides them. */
  hiddenSets: Map<string, HiddenFromReader>;
}

/** The pages and chunks a reader may not see, with the indexes' counts without them. */
export interface HiddenFromReader {
  pages: HiddenDocs;
  chunks: HiddenDocs;
}

/**
 * The pages a reader of `groups` may not see (see `visibleTo`), in ascending order: empty on a site
 * without restricted pages, every restricted page for a reader of no groups.
 */
export function hiddenPages(indexes: KeywordIndexes, groups: string[] | undefined): Uint32Array {
  const { pages, groups: pageGroups } = indexes.restricted;
  if (pages.length === 0 || !groups?.length) return pages;
  const hidden = pages.filter((_, i) => !visibleTo(pageGroups[i]!, groups));
  // Every restricted page hidden is the list itself, as for a reader of no groups (see `hiddenFrom`).
  return hidden.length === pages.length ? pages : hidden;
}

/**
 * What a reader of `groups` may not see, for a search that reads the indexes as if it were not there
 * (see `queryTermsFor`, `rankPages`); undefined when they may see every page, so such a search does
 * as it always did. Kept per set of hidden pages: the indexes go when the snapshot changes, and the
 * counts with them.
 */
export function hiddenFrom(indexes: KeywordIndexes, groups: string[] | undefined): HiddenFromReader | undefined {
  const pages = hiddenPages(indexes, groups);
  if (pages.length === 0) return undefined;
  // The set of a reader who may see no restricted page is the list of them itself: named without a pass over it.
  const key = pages === indexes.restricted.pages ? 'all' : pages.join(',');
  const kept = indexes.hiddenSets.get(key);
  if (kept) return kept;
  const chunks = Uint32Array.from(Array.from(pages, (page) => indexes.pageDocs.chunksOf[page]!).flat()).sort();
  const hidden = { pages: indexes.pages.without(pages)!, chunks: indexes.chunks.without(chunks)! };
  // The oldest set goes first: readers who pass ever new groups cannot make the map grow.
  if (indexes.hiddenSets.size >= HIDDEN_SETS_KEPT) indexes.hiddenSets.delete(indexes.hiddenSets.keys().next().value!);
  indexes.hiddenSets.set(key, hidden);
  return hidden;
}

/**
 * A title's or a query's words as written, lower-cased, in order: "Webhooks" and "webhooks?" are
 * one key, "Segment" and "Segments" two (stemmed terms would join a page and its plural's).
 */
function titleKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

export function buildKeywordIndexes(chunks: readonly StoredChunk[]): KeywordIndexes {
  const pageDocs = pageDocuments(chunks);
  const chunkIndex = KeywordIndex.of(chunks.map((c) => c.terms));
  const pages = chunkIndex.grouped(pageDocs.pageOf, pageDocs.firstChunk.length, pageDocs.surplus);
  const titled = new Map<string, number[]>();
  pageDocs.firstChunk.forEach((chunk, page) => {
    const key = titleKey(chunks[chunk]!.title);
    if (key) titled.set(key, [...(titled.get(key) ?? []), page]);
  });
  const restrictedPages: number[] = [];
  const restrictedGroups: string[][] = [];
  pageDocs.firstChunk.forEach((chunk, page) => {
    const { groups } = chunks[chunk]!;
    if (groups.length === 0) return;
    restrictedPages.push(page);
    restrictedGroups.push(groups);
  });
  const restricted = { pages: Uint32Array.from(restrictedPages), groups: restrictedGroups };
  return { chunks: chunkIndex, pages, pageDocs, typos: new TypoCorrector(pages), titled, restricted, hiddenSets: new Map() };
}

/**
 * Puts first the pages whose title is the query (a reader who types "Webhooks" or "Segment" wants
 * that page, not the pages that say the word most), shallower paths before deeper ones (a legacy or
 * versioned copy of a page sits deeper than the page). The rest keep their order. A titled page the
 * ranking did not reach joins with its first chunk and the best score.
 */
export function titlesFirst(indexes: KeywordIndexes, query: string, ranked: RankedPage[], paths: (page: number) => string, accept: (chunk: number) => boolean): RankedPage[] {
  const key = titleKey(query);
  const named = (key ? indexes.titled.get(key) : undefined)?.filter((page) => accept(indexes.pageDocs.firstChunk[page]!));
  if (!named?.length) return ranked;
  const depth = (page: number) => paths(page).split('/').filter(Boolean).length;
  const top = ranked[0]?.score ?? 1;
  const place = (page: number) => {
    const at = ranked.findIndex((r) => r.page === page);
    return at < 0 ? ranked.length : at;
  };
  const first = named
    .sort((a, b) => depth(a) - depth(b) || place(a) - place(b))
    .map((page) => {
      const found = ranked[place(page)];
      return found ? { ...found, score: top } : { page, score: top, chunks: [{ index: indexes.pageDocs.firstChunk[page]!, score: 0 }] };
    });
  return [...first, ...ranked.filter((r) => !named.includes(r.page))];
}

export interface RankedPage {
  /** Index of the page in `pageDocs`. */
  page: number;
  score: number;
  /** The page's chunks that match the query, best first; never empty. */
  chunks: RankedDoc[];
}

export interface PageRankingOptions {
  /** Whether a page (judged by its first chunk's markers: every chunk carries its page's) may be shown. */
  acceptChunk: (chunk: number) => boolean;
  /** A factor for a page's score (the reader's current page), at most `maxBoost`. */
  boostChunk?: (chunk: number) => number;
  maxBoost?: number;
  /** The pages the reader may not see (see `hiddenFrom`): scores are those of a domain without them. */
  hidden?: HiddenFromReader;
}

/**
 * A query's terms as the domain's index knows them (typos corrected against its words), in each of its languages (see
 * `queryLanguages`); with `hidden`, as it would know them without the pages hidden from the reader.
 */
export function queryTermsFor(indexes: KeywordIndexes, query: string, languages?: ReadonlyArray<string | undefined>, hidden?: HiddenFromReader): string[] {
  return resolveQuery(query, indexes.pages, indexes.typos, languages, hidden?.pages);
}

/**
 * Ranks pages, not chunks, so one page cannot fill several places. The best
 * pages by BM25F over the whole page (terms spread over its sections count,
 * as a reader reading the page would see them) are re-ranked by the mean of
 * that score and their best chunk's (one section that answers the whole query
 * counts most), both in [0, 1]. The best chunk is what a result shows.
 */
export function rankPages(indexes: KeywordIndexes, terms: readonly string[], limit: number, options: PageRankingOptions): RankedPage[] {
  const { pageDocs } = indexes;
  const first = (page: number) => pageDocs.firstChunk[page]!;
  const boost = options.boostChunk;
  const chunkQuery = indexes.chunks.prepare(terms, options.hidden?.chunks);
  const candidates = indexes.pages.search(
    indexes.pages.prepare(terms, options.hidden?.pages),
    limit * RERANKED_PER_PAGE,
    (page) => options.acceptChunk(first(page)),
    boost ? (page) => boost(first(page)) : undefined,
    options.maxBoost,
  );
  const ranked: RankedPage[] = [];
  for (const { index: page, score: pageScore } of candidates) {
    const chunks: RankedDoc[] = [];
    for (const chunk of pageDocs.chunksOf[page]!) {
      const score = indexes.chunks.score(chunkQuery, chunk);
      if (score > 0) chunks.push({ index: chunk, score });
    }
    chunks.sort((a, b) => b.score - a.score);
    if (chunks.length === 0) chunks.push({ index: first(page), score: 0 });
    const best = chunks[0]?.score ?? 0;
    const factor = boost ? boost(first(page)) : 1;
    ranked.push({ page, score: Math.min(1, (pageScore + best * factor) / 2), chunks });
  }
  return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
}
