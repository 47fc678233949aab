import type { Config } from '../config.js';
import { createModelPort, type ModelPort } from '../model/index.js';

/** Turns texts into dense vectors; one call per batch. */
export interface Embedder {
  embed(texts: string[]): Promise<number[][]>;
}

const BATCH = 64;

/**
 * An embeddings endpoint through the model port. No client retries: indexing
 * runs in a Temporal activity whose retry policy is the only retry loop, and a
 * query in the API fails at once rather than keep a reader waiting.
 */
export function modelEmbedder(embedding: NonNullable<Config['embedding']>, port: ModelPort = createModelPort(embedding)): Embedder {
  return {
    async embed(texts) {
      const vectors: number[][] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        vectors.push(...(await port.embed({ model: embedding.model, texts: texts.slice(i, i + BATCH), dimensions: embedding.dimensions })));
      }
      return vectors;
    },
  };
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The text a chunk is embedded as: where it sits, then what it says. */
export function embeddingText(chunk: { breadcrumb: string[]; content: string }): string {
  return `${chunk.breadcrumb.join(' > ')}\n\n${chunk.content}`;
}
