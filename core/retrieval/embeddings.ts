import OpenAI from 'openai';
import type { Config } from '../config.js';

/** Turns texts into dense vectors; one call per batch. */
export interface Embedder {
  embed(texts: string[]): Promise<number[][]>;
}

const BATCH = 64;

/**
 * An OpenAI-compatible embeddings endpoint. The client retries twice at most:
 * indexing runs in a Temporal activity whose own retry policy is the outer loop.
 */
export function openAiEmbedder(embedding: NonNullable<Config['embedding']>): Embedder {
  const client = new OpenAI({
    apiKey: embedding.apiKey ?? 'unused',
    ...(embedding.baseUrl ? { baseURL: embedding.baseUrl } : {}),
    maxRetries: 2,
    timeout: 60_000,
  });
  return {
    async embed(texts) {
      const vectors: number[][] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const res = await client.embeddings.create({
          model: embedding.model,
          input: texts.slice(i, i + BATCH),
          // Plain floats: not every OpenAI-compatible server implements the SDK's base64 default.
          encoding_format: 'float',
          ...(embedding.dimensions ? { dimensions: embedding.dimensions } : {}),
        });
        const ordered = [...res.data].sort((a, b) => a.index - b.index);
        for (const item of ordered) vectors.push(item.embedding);
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
