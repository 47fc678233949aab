import type { Embedder } from './embeddings.js';
import type { VectorCache } from './vector-cache.js';

/** How indexing gets its vectors: the model, the cache in front of it, and the size of one request. */
export interface ChunkEmbedding {
  embedder: Embedder;
  cache: VectorCache;
  /** Texts per embeddings request: bounds what a crash loses and how long one request runs. */
  batchSize: number;
  /** Aborts the request in flight (the activity was cancelled). */
  signal?: AbortSignal;
}

export interface EmbeddedTexts {
  /** One vector per text, in order. */
  vectors: number[][];
  /** How many of the texts came from the cache rather than the model. */
  cached: number;
}

/**
 * Vectors for `texts`: cached ones at once, the rest in requests of at most
 * `batchSize` texts, each batch cached as soon as it returns, so a retried
 * activity asks the model only for what the failed attempt had not finished.
 * `onProgress` is told how many texts have their vector.
 */
export async function embedTexts(texts: string[], embedding: ChunkEmbedding, onProgress?: (ready: number) => void): Promise<EmbeddedTexts> {
  const { embedder, cache, batchSize } = embedding;
  const found = await cache.get(embedder.id, texts);
  const byText = new Map<string, number[]>();
  // A text repeated across pages (a shared snippet) is asked for once and counts once per use.
  const uses = new Map<string, number>();
  texts.forEach((text, i) => {
    const vector = found[i];
    if (vector) byText.set(text, vector);
    else uses.set(text, (uses.get(text) ?? 0) + 1);
  });
  const missing = [...uses.keys()];
  const cached = texts.length - [...uses.values()].reduce((sum, n) => sum + n, 0);
  let ready = cached;
  onProgress?.(ready);
  for (let i = 0; i < missing.length; i += batchSize) {
    const batch = missing.slice(i, i + batchSize);
    const vectors = await embedder.embed(batch, 'passage', embedding.signal);
    if (vectors.length !== batch.length) throw new Error(`the embedding model returned ${vectors.length} vectors for ${batch.length} texts`);
    const entries = batch.map((text, j) => ({ text, vector: vectors[j]! }));
    await cache.put(embedder.id, entries);
    for (const { text, vector } of entries) {
      byText.set(text, vector);
      ready += uses.get(text) ?? 0;
    }
    onProgress?.(ready);
  }
  return { vectors: texts.map((text) => byText.get(text)!), cached };
}
