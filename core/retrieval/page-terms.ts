import { FIELD_WEIGHTS } from './keyword-index.js';
import type { StoredChunk } from './snapshot-file.js';
import { termFrequencies } from './tokenise.js';

/** The pages of a snapshot as documents of their own, for page-level ranking. */
export interface PageDocuments {
  /** Index of the first chunk of each page: the page's markers and title. */
  firstChunk: number[];
  /** Chunk indexes of each page, in page order. */
  chunksOf: number[][];
  /** Weighted term frequencies of each page as a whole. */
  termLists: Array<Map<string, number>>;
}

/**
 * Groups chunks by page and adds up their weighted terms into one document
 * per page: title and path once, every heading and the description, and the
 * whole body. Each chunk repeats the page's title and path, so all but one
 * copy are taken off again, which spares tokenising the page a second time.
 */
export function pageDocuments(chunks: readonly StoredChunk[]): PageDocuments {
  const byPath = new Map<string, number>();
  const docs: PageDocuments = { firstChunk: [], chunksOf: [], termLists: [] };
  chunks.forEach((chunk, index) => {
    let page = byPath.get(chunk.path);
    if (page === undefined) {
      page = docs.firstChunk.length;
      byPath.set(chunk.path, page);
      docs.firstChunk.push(index);
      docs.chunksOf.push([]);
      docs.termLists.push(new Map());
    }
    docs.chunksOf[page]!.push(index);
    const terms = docs.termLists[page]!;
    for (const [term, tf] of chunk.terms) terms.set(term, (terms.get(term) ?? 0) + tf);
  });
  docs.termLists.forEach((terms, page) => {
    const repeats = docs.chunksOf[page]!.length - 1;
    if (repeats === 0) return;
    const first = chunks[docs.firstChunk[page]!]!;
    termFrequencies(first.title, terms, -FIELD_WEIGHTS.title * repeats);
    termFrequencies(first.path, terms, -FIELD_WEIGHTS.path * repeats);
    for (const [term, tf] of terms) if (tf <= 0) terms.delete(term);
  });
  return docs;
}
