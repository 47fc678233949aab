import type { IndexedChunk } from './indexed.js';
import { termFrequencies } from './tokenise.js';

/** Field weights: a word in a title or heading says more about a chunk than one in its body. */
export const FIELD_WEIGHTS = { title: 3, headings: 2, path: 1, body: 1 } as const;
const K1 = 1.2;
const B = 0.75;

/** A chunk's weighted term frequencies: what both stores score (Qdrant as a sparse vector). */
export function chunkTerms(chunk: Pick<IndexedChunk, 'title' | 'headings' | 'path' | 'content'>): Map<string, number> {
  const terms = new Map<string, number>();
  termFrequencies(chunk.title, terms, FIELD_WEIGHTS.title);
  termFrequencies(chunk.headings, terms, FIELD_WEIGHTS.headings);
  termFrequencies(chunk.path, terms, FIELD_WEIGHTS.path);
  termFrequencies(chunk.content, terms, FIELD_WEIGHTS.body);
  return terms;
}

export interface RankedDoc {
  index: number;
  /** BM25 divided by its ceiling for the query, in [0, 1]. */
  score: number;
}

/**
 * An in-memory inverted index with BM25 scoring over weighted term
 * frequencies (BM25F with the weights folded into the frequencies). Postings
 * are typed arrays sorted by document id, so a query touches only the
 * documents that contain one of its terms, and one document's score is a
 * binary search per term. Queries arrive as terms already resolved against
 * the vocabulary (see `resolveQuery`).
 */
export class KeywordIndex {
  private readonly postings = new Map<string, { ids: Uint32Array; tfs: Float32Array }>();
  /** BM25's length normalisation per document, computed once: K1 · (1 − B + B · length / average). */
  private readonly norms: Float32Array;
  private readonly scores: Float64Array;

  constructor(termLists: ReadonlyArray<Iterable<readonly [string, number]>>) {
    const n = termLists.length;
    const lengths = new Float64Array(n);
    this.scores = new Float64Array(n);
    // Two passes into preallocated typed arrays: counting first avoids growing millions of small arrays.
    const df = new Map<string, number>();
    let total = 0;
    termLists.forEach((terms, id) => {
      let length = 0;
      for (const [term, tf] of terms) {
        length += tf;
        df.set(term, (df.get(term) ?? 0) + 1);
      }
      lengths[id] = length;
      total += length;
    });
    const filled = new Map<string, { ids: Uint32Array; tfs: Float32Array; at: number }>();
    for (const [term, count] of df) filled.set(term, { ids: new Uint32Array(count), tfs: new Float32Array(count), at: 0 });
    termLists.forEach((terms, id) => {
      for (const [term, tf] of terms) {
        const list = filled.get(term)!;
        list.ids[list.at] = id;
        list.tfs[list.at++] = tf;
      }
    });
    for (const [term, { ids, tfs }] of filled) this.postings.set(term, { ids, tfs });
    const avgLength = n > 0 ? total / n : 1;
    this.norms = new Float32Array(n);
    for (let id = 0; id < n; id++) this.norms[id] = K1 * (1 - B + (B * lengths[id]!) / avgLength);
  }

  get size(): number {
    return this.norms.length;
  }

  /** How many documents hold the term (0 when none does). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.ids.length ?? 0;
  }

  /** Every term of the index, for typo correction. */
  terms(): IterableIterator<string> {
    return this.postings.keys();
  }

  private weightOf(df: number): number {
    const n = this.norms.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (K1 + 1);
  }

  /** The best score a document can reach for these terms: the divisor that puts scores in [0, 1]. */
  private ceiling(terms: readonly string[]): number {
    let ceiling = 0;
    for (const term of terms) {
      const df = this.documentFrequency(term);
      if (df > 0) ceiling += this.weightOf(df);
    }
    return ceiling;
  }

  /**
   * The best `limit` documents for the terms among those `accept` lets
   * through. `boost` may raise a score by at most `maxBoost`; documents that
   * cannot enter the top list even boosted are never passed to `accept`.
   */
  search(
    terms: readonly string[],
    limit: number,
    accept: (index: number) => boolean,
    boost?: (index: number) => number,
    maxBoost = 1,
  ): RankedDoc[] {
    const scores = this.scores;
    const norms = this.norms;
    const touched: number[] = [];
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const { ids, tfs } = list;
      const weight = this.weightOf(ids.length);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        const tf = tfs[i]!;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += (weight * tf) / (tf + norms[id]!);
      }
    }
    const ceiling = this.ceiling(terms);
    const top: RankedDoc[] = [];
    let floor = -1;
    for (const id of touched) {
      const raw = scores[id]! / ceiling;
      scores[id] = 0;
      if (top.length === limit && raw * maxBoost <= floor) continue;
      if (!accept(id)) continue;
      const score = Math.min(1, boost ? raw * boost(id) : raw);
      if (top.length === limit && score <= floor) continue;
      insertRanked(top, { index: id, score }, limit);
      if (top.length === limit) floor = top[limit - 1]!.score;
    }
    return top;
  }

  /** One document's score for the terms, on the same [0, 1] scale as `search`. */
  score(terms: readonly string[], id: number): number {
    let score = 0;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const at = binarySearch(list.ids, id);
      if (at < 0) continue;
      const tf = list.tfs[at]!;
      score += (this.weightOf(list.ids.length) * tf) / (tf + this.norms[id]!);
    }
    const ceiling = this.ceiling(terms);
    return ceiling > 0 ? score / ceiling : 0;
  }
}

function binarySearch(ids: Uint32Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid]!;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Inserts into a list kept sorted by score, best first, at most `limit` long. */
function insertRanked(top: RankedDoc[], hit: RankedDoc, limit: number): void {
  let at = top.length;
  while (at > 0 && top[at - 1]!.score < hit.score) at--;
  top.splice(at, 0, hit);
  if (top.length > limit) top.pop();
}
