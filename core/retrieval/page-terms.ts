import { FIELD_WEIGHTS } from './keyword-index.js';
import type { StoredChunk } from './snapshot-file.js';
import { termFrequencies } from './tokenise.js';

/** The pages of a snapshot, as groups of its chunks. */
export interface PageDocuments {
  /** Page of each chunk. */
  pageOf: Uint32Array;
  /** Index of the first chunk of each page: the page's markers and title. */
  firstChunk: number[];
  /** Chunk indexes of each page, in page order. */
  chunksOf: number[][];
  /**
   * What a page's chunks repeat: each carries the page's title and path, which
   * the page as a whole holds once. Undefined for a page of one chunk.
   */
  surplus: Array<Map<string, number> | undefined>;
}

/** Groups chunks by page (see `KeywordIndex.grouped`, which makes the pages' index from the chunks'). */
export function pageDocuments(chunks: readonly StoredChunk[]): PageDocuments {
  const byPath = new Map<string, number>();
  const docs: PageDocuments = { pageOf: new Uint32Array(chunks.length), firstChunk: [], chunksOf: [], surplus: [] };
  chunks.forEach((chunk, index) => {
    let page = byPath.get(chunk.path);
    if (page === undefined) {
      page = docs.firstChunk.length;
      byPath.set(chunk.path, page);
      docs.firstChunk.push(index);
      docs.chunksOf.push([]);
    }
    docs.pageOf[index] = page;
    docs.chunksOf[page]!.push(index);
  });
  docs.surplus = docs.chunksOf.map((ids, page) => {
    const repeats = ids.length - 1;
    if (repeats === 0) return undefined;
    const first = chunks[docs.firstChunk[page]!]!;
    const surplus = termFrequencies(first.title, new Map(), FIELD_WEIGHTS.title * repeats, first.stemming);
    return termFrequencies(first.path, surplus, FIELD_WEIGHTS.path * repeats, first.stemming);
  });
  return docs;
}
