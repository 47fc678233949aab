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
  private readonly avgLength: number;
  private readonly scores: Float64Array;

  constructor(chunkTermLists: ReadonlyArray<ReadonlyArray<readonly [string, number]>>) {
    const n = chunkTermLists.length;
    this.lengths = new Float32Array(n);
    this.scores = new Float64Array(n);
    const building = new Map<string, { ids: number[]; tfs: number[] }>();
    let total = 0;
    chunkTermLists.forEach((terms, id) => {
      let length = 0;
      for (const [term, tf] of terms) {
        length += tf;
        let list = building.get(term);
        if (!list) building.set(term, (list = { ids: [], tfs: [] }));
        list.ids.push(id);
        list.tfs.push(tf);
      }
      this.lengths[id] = length;
      total += length;
    });
    this.avgLength = n > 0 ? total / n : 1;
    for (const [term, list] of building) {
      this.postings.set(term, { ids: Uint32Array.from(list.ids), tfs: Float32Array.from(list.tfs) });
    }
  }

  get size(): number {
    return this.lengths.length;
  }

  /** The best `limit` chunks for the query among those `accept` lets through. */
  search(query: string, limit: number, accept: (index: number) => boolean, boost?: (index: number) => number): RankedChunk[] {
    const n = this.lengths.length;
    const terms = [...new Set(tokenise(query))];
    const touched: number[] = [];
    let ceiling = 0;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const df = list.ids.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      ceiling += idf * (K1 + 1);
      for (let i = 0; i < list.ids.length; i++) {
        const id = list.ids[i]!;
        const tf = list.tfs[i]!;
        const norm = K1 * (1 - B + (B * this.lengths[id]!) / this.avgLength);
        if (this.scores[id] === 0) touched.push(id);
        this.scores[id]! += (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    const top: RankedChunk[] = [];
    for (const id of touched) {
      const raw = this.scores[id]!;
      this.scores[id] = 0;
      if (!accept(id)) continue;
      const score = Math.min(1, (raw / ceiling) * (boost ? boost(id) : 1));
      if (top.length === limit && score <= top[top.length - 1]!.score) continue;
      insertRanked(top, { index: id, score }, limit);
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

