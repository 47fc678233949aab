import type { EmbeddingSettings, InputMarking } from '../config.js';
import type { ModelPort } from '../model/index.js';

/** What a text is to the model: a reader's question, or a passage of the docs. */
export type EmbedKind = 'query' | 'passage';

/** Turns texts into dense vectors. */
export interface Embedder {
  /** Which vectors it makes (model, dimensions, marking): vectors of different embedders never mix. */
  readonly id: string;
  /** One request: callers bound the batch (see `embedTexts`). */
  embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<number[][]>;
}

/** The identity of an embedding configuration; part of every page hash, so a change re-embeds. */
export function embedderId(embedding: Pick<EmbeddingSettings, 'model' | 'dimensions'> & { marking?: InputMarking }): string {
  const marking = embedding.marking && embedding.marking !== 'none' ? `#${embedding.marking}` : '';
  return `${embedding.model}@${embedding.dimensions ?? 'native'}${marking}`;
}

/** e5's prefixes; bge marks only the query, with its retrieval instruction. */
function prefixes(model: string): Record<EmbedKind, string> {
  if (/bge/i.test(model)) return { query: 'Represent this sentence for searching relevant passages: ', passage: '' };
  return { query: 'query: ', passage: 'passage: ' };
}

/** `input_type` values: `query` and `document` are what e5 servers and Voyage both accept. */
const INPUT_TYPES: Record<EmbedKind, string> = { query: 'query', passage: 'document' };

/**
 * An embeddings endpoint through the model port, marking queries and passages
 * the way the model expects. No client retries: indexing runs in a Temporal
 * activity whose retry policy is the only retry loop, and a query in the API
 * falls back to keyword ranking rather than keep a reader waiting.
 */
export function modelEmbedder(embedding: EmbeddingSettings, port: ModelPort): Embedder {
  const marks = prefixes(embedding.model);
  return {
    id: embedderId(embedding),
    embed: (texts, kind, signal) =>
      port.embed({
        model: embedding.model,
        texts: embedding.marking === 'prefix' ? texts.map((t) => marks[kind] + t) : texts,
        dimensions: embedding.dimensions,
        ...(embedding.marking === 'input_type' ? { inputType: INPUT_TYPES[kind] } : {}),
        ...(embedding.base64Vectors ? { base64: true } : {}),
        ...(signal ? { signal } : {}),
      }),
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
