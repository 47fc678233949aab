import type { IndexedChunk } from './indexed.js';
import { termFrequencies, tokenise } from './tokenise.js';

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

export interface RankedChunk {
  index: number;
  /** BM25 divided by its ceiling for the query, in [0, 1]. */
  score: number;
}

/**
 * An in-memory inverted index with BM25 scoring over weighted term
 * frequencies. Postings are typed arrays so a query touches only the chunks
 * that contain one of its terms.
 */
export class KeywordIndex {
  private readonly postings = new Map<string, { ids: Uint32Array; tfs: Float32Array }>();
  private readonly lengths: Float32Array;
  /** BM25's length normalisation per chunk, computed once: K1 · (1 − B + B · length / average). */
  private readonly norms: Float32Array;
  private readonly avgLength: number;
  private readonly scores: Float64Array;

  constructor(chunkTermLists: ReadonlyArray<ReadonlyArray<readonly [string, number]>>) {
    const n = chunkTermLists.length;
    this.lengths = new Float32Array(n);
    this.scores = new Float64Array(n);
    // Two passes into preallocated typed arrays: counting first avoids growing millions of small arrays.
    const df = new Map<string, number>();
    let total = 0;
    chunkTermLists.forEach((terms, id) => {
      let length = 0;
      for (const [term, tf] of terms) {
        length += tf;
        df.set(term, (df.get(term) ?? 0) + 1);
      }
      this.lengths[id] = length;
      total += length;
    });
    const filled = new Map<string, { ids: Uint32Array; tfs: Float32Array; at: number }>();
    for (const [term, count] of df) filled.set(term, { ids: new Uint32Array(count), tfs: new Float32Array(count), at: 0 });
    chunkTermLists.forEach((terms, id) => {
      for (const [term, tf] of terms) {
        const list = filled.get(term)!;
        list.ids[list.at] = id;
        list.tfs[list.at++] = tf;
      }
    });
    for (const [term, { ids, tfs }] of filled) this.postings.set(term, { ids, tfs });
    this.avgLength = n > 0 ? total / n : 1;
    this.norms = new Float32Array(n);
    for (let id = 0; id < n; id++) this.norms[id] = K1 * (1 - B + (B * this.lengths[id]!) / this.avgLength);
  }

  get size(): number {
    return this.lengths.length;
  }

  /**
   * The best `limit` chunks for the query among those `accept` lets through.
   * `boost` may raise a score by at most `maxBoost`; chunks that cannot enter
   * the top list even boosted are never passed to `accept`.
   */
  search(
    query: string,
    limit: number,
    accept: (index: number) => boolean,
    boost?: (index: number) => number,
    maxBoost = 1,
  ): RankedChunk[] {
    const n = this.lengths.length;
    const scores = this.scores;
    const norms = this.norms;
    const terms = [...new Set(tokenise(query))];
    const touched: number[] = [];
    let ceiling = 0;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const { ids, tfs } = list;
      const df = ids.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const weight = idf * (K1 + 1);
      ceiling += weight;
      for (let i = 0; i < df; i++) {
        const id = ids[i]!;
        const tf = tfs[i]!;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += (weight * tf) / (tf + norms[id]!);
      }
    }
    const top: RankedChunk[] = [];
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
}

/** Inserts into a list kept sorted by score, best first, at most `limit` long. */
function insertRanked(top: RankedChunk[], hit: RankedChunk, limit: number): void {
  let at = top.length;
  while (at > 0 && top[at - 1]!.score < hit.score) at--;
  top.splice(at, 0, hit);
  if (top.length > limit) top.pop();
}

