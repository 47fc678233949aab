import type { Embedder } from './embeddings.js';

/**
 * How a search ranked: `hybrid` (keyword and dense, fused), `keyword` (no
 * embedder configured), or `keyword-fallback` (an embedder is configured but
 * did not answer within the query's budget, so keyword ranking alone answered).
 */
export type RetrievalMode = 'hybrid' | 'keyword' | 'keyword-fallback';

export interface QueryVector {
  vector: number[] | undefined;
  mode: RetrievalMode;
}

/** After a failure, searches skip the embedder this long rather than each wait out the budget. */
const RETRY_AFTER_MS = 5_000;

/**
 * The query side of dense retrieval: one embeddings request per search,
 * bounded by `timeoutMs`. A failure or a timeout never fails the search: it
 * ranks by keyword and says so, and the next few seconds of searches do not
 * ask the embedder again, so an outage costs one request its budget.
 */
export class QueryEmbedder {
  private downUntil = 0;

  constructor(private readonly embedder: Embedder | undefined, private readonly timeoutMs: number, private readonly now: () => number = Date.now) {}

  /** The embedder's identity, for stores that size collections by it. */
  get configured(): Embedder | undefined {
    return this.embedder;
  }

  async vectorOf(query: string): Promise<QueryVector> {
    if (!this.embedder) return { vector: undefined, mode: 'keyword' };
    if (this.now() < this.downUntil) return { vector: undefined, mode: 'keyword-fallback' };
    try {
      const [vector] = await this.embedder.embed([query], 'query', AbortSignal.timeout(this.timeoutMs));
      if (vector && vector.length > 0) return { vector, mode: 'hybrid' };
    } catch {
      // Down, slow or refusing: the reader still gets keyword results.
    }
    this.downUntil = this.now() + RETRY_AFTER_MS;
    return { vector: undefined, mode: 'keyword-fallback' };
  }
}
