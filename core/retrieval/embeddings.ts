import type { Config } from '../config.js';
import { createModelPort, type ModelPort } from '../model/index.js';

/** Turns texts into dense vectors. */
export interface Embedder {
  /** Which vectors it makes (model and dimensions): vectors of different embedders never mix. */
  readonly id: string;
  /** One request: callers bound the batch (see `embedTexts`). */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** The identity of an embedding configuration; part of every page hash, so a change re-embeds. */
export function embedderId(embedding: Pick<NonNullable<Config['embedding']>, 'model' | 'dimensions'>): string {
  return `${embedding.model}@${embedding.dimensions ?? 'native'}`;
}

/**
 * An embeddings endpoint through the model port. No client retries: indexing
 * runs in a Temporal activity whose retry policy is the only retry loop, and a
 * query in the API fails at once rather than keep a reader waiting.
 */
export function modelEmbedder(embedding: NonNullable<Config['embedding']>, port: ModelPort = createModelPort(embedding)): Embedder {
  return {
    id: embedderId(embedding),
    embed: (texts, signal) =>
      port.embed({ model: embedding.model, texts, dimensions: embedding.dimensions, ...(signal ? { signal } : {}) }),
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
