import type { IndexedChunk } from './indexed.js';
import { termFrequencies } from './tokenise.js';

/** Field weights: a word in a title or heading says more about a chunk than one in its body. */
export const FIELD_WEIGHTS = { title: 3, headings: 2, path: 1, body: 1 } as const;
const K1 = 1.2;
const B = 0.75;

/** A chunk's weighted term frequencies: what both stores score (Qdrant as a sparse vector). */
export function chunkTerms(chunk: Pick<IndexedChunk, 'title' | 'headings' | 'path' | 'content' | 'stemming'>): Map<string, number> {
  const terms = new Map<string, number>();
  const language = chunk.stemming;
  termFrequencies(chunk.title, terms, FIELD_WEIGHTS.title, language);
  termFrequencies(chunk.headings, terms, FIELD_WEIGHTS.headings, language);
  termFrequencies(chunk.path, terms, FIELD_WEIGHTS.path, language);
  termFrequencies(chunk.content, terms, FIELD_WEIGHTS.body, language);
  return terms;
}

export interface RankedDoc {
  index: number;
  /** BM25 divided by its ceiling for the query, in [0, 1]. */
  score: number;
}

interface Postings {
  ids: Uint32Array;
  tfs: Float32Array;
}

/** A query's terms with their postings and weights, looked up once for many scores. */
export interface PreparedQuery {
  lists: Postings[];
  weights: number[];
  /** The best score a document can reach: the divisor that puts scores in [0, 1]. */
  ceiling: number;
  /** The average document length of the documents left when some are hidden (see `HiddenDocs`); else the index's own. */
  avgLength?: number;
}

/**
 * Documents a reader may not see, with what the index counts without them: a query prepared with
 * them (see `KeywordIndex.prepare`) scores the other documents as an index that never held them would.
 */
export interface HiddenDocs {
  /** Ids in ascending order, never none. */
  ids: Uint32Array;
  /** 1 at each hidden id, 0 elsewhere: counts a term's documents in one pass over them (see `documentFrequency`). */
  mask: Uint8Array;
  /** Terms' document frequencies without the hidden documents, as queries look them up: a frequent word is counted once. */
  frequencies: Map<string, number>;
  /** How many documents are left, and their average length. */
  count: number;
  avgLength: number;
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
  /** BM25's length normalisation per document, computed once: K1 · (1 − B + B · length / average). */
  private readonly norms: Float32Array;
  private readonly scores: Float64Array;
  private readonly totalLength: number;

  private constructor(private readonly postings: Map<string, Postings>, readonly lengths: Float64Array) {
    const n = lengths.length;
    this.scores = new Float64Array(n);
    let total = 0;
    for (const length of lengths) total += length;
    this.totalLength = total;
    const avgLength = n > 0 ? total / n : 1;
    this.norms = new Float32Array(n);
    for (let id = 0; id < n; id++) this.norms[id] = lengthNorm(lengths[id]!, avgLength);
  }

  /** An index of documents given as weighted term frequencies. */
  static of(termLists: ReadonlyArray<Iterable<readonly [string, number]>>): KeywordIndex {
    const n = termLists.length;
    const lengths = new Float64Array(n);
    // Two passes into preallocated typed arrays: counting first avoids growing millions of small arrays.
    const df = new Map<string, number>();
    termLists.forEach((terms, id) => {
      let length = 0;
      for (const [term, tf] of terms) {
        length += tf;
        df.set(term, (df.get(term) ?? 0) + 1);
      }
      lengths[id] = length;
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
    const postings = new Map<string, Postings>();
    for (const [term, { ids, tfs }] of filled) postings.set(term, { ids, tfs });
    return new KeywordIndex(postings, lengths);
  }

  /**
   * An index whose documents are groups of this one's (pages of chunks): a
   * group's frequencies are the sum of its members', less `surplus` (what its
   * members repeat, counted once in the group). Built from the postings, not
   * by adding up term maps, so it costs a pass over them.
   */
  grouped(groupOf: Uint32Array, groups: number, surplus: ReadonlyArray<Map<string, number> | undefined>): KeywordIndex {
    const lengths = new Float64Array(groups);
    this.lengths.forEach((length, id) => (lengths[groupOf[id]!]! += length));
    const postings = new Map<string, Postings>();
    for (const [term, { ids, tfs }] of this.postings) {
      const gids = new Uint32Array(ids.length);
      const gtfs = new Float32Array(ids.length);
      let count = 0;
      let sorted = true;
      for (let i = 0; i < ids.length; i++) {
        const group = groupOf[ids[i]!]!;
        if (count > 0 && gids[count - 1] === group) {
          gtfs[count - 1]! += tfs[i]!;
          continue;
        }
        if (count > 0 && gids[count - 1]! > group) sorted = false;
        gids[count] = group;
        gtfs[count++] = tfs[i]!;
      }
      // Views, not copies: a group's postings are at most as long as its members'.
      const groupIds = gids.subarray(0, count);
      const groupTfs = gtfs.subarray(0, count);
      postings.set(term, sorted ? { ids: groupIds, tfs: groupTfs } : mergeUnsorted(groupIds, groupTfs));
    }
    surplus.forEach((terms, group) => {
      for (const [term, tf] of terms ?? []) {
        const list = postings.get(term);
        const at = list ? binarySearch(list.ids, group) : -1;
        if (at < 0) continue;
        list!.tfs[at]! -= tf;
        lengths[group]! -= tf;
      }
    });
    return new KeywordIndex(postings, lengths);
  }

  get size(): number {
    return this.norms.length;
  }

  /**
   * How many documents hold the term (0 when none does), leaving out the `hidden` ones (ids in
   * ascending order, or as `without` gives them): each id of the shorter list is looked up in the
   * longer, or, given the hidden ones' mask, each of the term's documents in it, whichever is cheaper.
   */
  documentFrequency(term: string, hidden?: Uint32Array | HiddenDocs): number {
    const ids = this.postings.get(term)?.ids;
    if (!ids) return 0;
    const hiddenIds = hidden instanceof Uint32Array ? hidden : hidden?.ids;
    if (!hiddenIds?.length) return ids.length;
    let count = ids.length;
    const kept = hidden instanceof Uint32Array ? undefined : hidden?.frequencies.get(term);
    if (kept !== undefined) return kept;
    const mask = hidden instanceof Uint32Array ? undefined : hidden?.mask;
    // Many hidden documents (a reader of no groups on a site of many restricted pages) would cost a
    // binary search each for every word of every query: the mask costs one look per document of the term.
    if (mask && ids.length <= hiddenIds.length * Math.log2(ids.length + 1)) {
      for (const id of ids) count -= mask[id]!;
    } else {
      const [few, many] = hiddenIds.length < ids.length ? [hiddenIds, ids] : [ids, hiddenIds];
      for (const id of few) if (binarySearch(many, id) >= 0) count--;
    }
    if (!(hidden instanceof Uint32Array)) hidden?.frequencies.set(term, count);
    return count;
  }

  /**
   * The index as a reader who may not see the `hidden` documents (ids in ascending order) counts it;
   * undefined when none is hidden. Costs a pass over them and a mask of every document, so it is
   * meant to be kept (see `hiddenFrom`). Lengths are sums of whole weighted counts, so taking the
   * hidden ones from the total gives exactly the sum of the others.
   */
  without(hidden: Uint32Array): HiddenDocs | undefined {
    if (hidden.length === 0) return undefined;
    let total = this.totalLength;
    const mask = new Uint8Array(this.size);
    for (const id of hidden) {
      total -= this.lengths[id]!;
      mask[id] = 1;
    }
    const count = this.size - hidden.length;
    return { ids: hidden, mask, frequencies: new Map(), count, avgLength: count > 0 ? total / count : 1 };
  }

  /** Every term of the index, for typo correction. */
  terms(): IterableIterator<string> {
    return this.postings.keys();
  }

  /**
   * Looks a query's terms up once, for `search` and any number of `score` calls. With `hidden`, the
   * document frequencies, the count of documents and their average length leave the hidden ones out,
   * and a term only they hold is no term of the query: the scores of the others are what an index
   * without them gives. (The hidden documents still get scores; the caller's filter drops them.)
   */
  prepare(terms: readonly string[], hidden?: HiddenDocs): PreparedQuery {
    const n = hidden ? hidden.count : this.norms.length;
    const query: PreparedQuery = { lists: [], weights: [], ceiling: 0, ...(hidden ? { avgLength: hidden.avgLength } : {}) };
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const df = hidden ? this.documentFrequency(term, hidden) : list.ids.length;
      if (df === 0) continue;
      const weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (K1 + 1);
      query.lists.push(list);
      query.weights.push(weight);
      query.ceiling += weight;
    }
    return query;
  }

  /**
   * The best `limit` documents for the query among those `accept` lets
   * through. `boost` may raise a score by at most `maxBoost`; documents that
   * cannot enter the top list even boosted are never passed to `accept`.
   */
  search(
    query: PreparedQuery,
    limit: number,
    accept: (index: number) => boolean,
    boost?: (index: number) => number,
    maxBoost = 1,
  ): RankedDoc[] {
    const scores = this.scores;
    const norms = this.norms;
    const lengths = this.lengths;
    const avgLength = query.avgLength;
    const touched: number[] = [];
    query.lists.forEach(({ ids, tfs }, t) => {
      const weight = query.weights[t]!;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        const tf = tfs[i]!;
        // With hidden documents the norms follow their average length, computed for the documents touched only.
        const norm = avgLength === undefined ? norms[id]! : lengthNorm(lengths[id]!, avgLength);
        if (scores[id] === 0) touched.push(id);
        scores[id]! += (weight * tf) / (tf + norm);
      }
    });
    const top: RankedDoc[] = [];
    let floor = -1;
    for (const id of touched) {
      const raw = scores[id]! / query.ceiling;
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

  /** One document's score for the query, on the same [0, 1] scale as `search`. */
  score(query: PreparedQuery, id: number): number {
    let score = 0;
    query.lists.forEach(({ ids, tfs }, t) => {
      const at = binarySearch(ids, id);
      if (at < 0) return;
      const tf = tfs[at]!;
      const norm = query.avgLength === undefined ? this.norms[id]! : lengthNorm(this.lengths[id]!, query.avgLength);
      score += (query.weights[t]! * tf) / (tf + norm);
    });
    return query.ceiling > 0 ? score / query.ceiling : 0;
  }
}

/** BM25's length normalisation of a document, rounded as the norms are kept (single precision), so either way scores alike. */
function lengthNorm(length: number, avgLength: number): number {
  return Math.fround(K1 * (1 - B + (B * length) / avgLength));
}

/** Postings whose groups came out of order (a page's chunks not side by side): sorted, repeats summed. */
function mergeUnsorted(ids: Uint32Array, tfs: Float32Array): Postings {
  const byId = new Map<number, number>();
  ids.forEach((id, i) => byId.set(id, (byId.get(id) ?? 0) + tfs[i]!));
  const sorted = [...byId.keys()].sort((a, b) => a - b);
  return { ids: Uint32Array.from(sorted), tfs: Float32Array.from(sorted, (id) => byId.get(id)!) };
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
