import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { ChunkEmbedding } from './embed-texts.js';
import { modelEmbedder } from './embeddings.js';
import { createVectorCache } from './vector-cache.js';

/**
 * How the indexing worker embeds chunks: the configured embedding model
 * through the model port, behind the vector cache in the database (equal texts embed once).
 * Undefined when no embedding model is set (keyword retrieval only). Open
 * it once per process: it holds a connection pool and the cache file.
 */
export function openChunkEmbedding(config: Config, database: Database): ChunkEmbedding | undefined {
  if (!config.embedding) return undefined;
  return {
    embedder: modelEmbedder(config.embedding),
    cache: createVectorCache(database),
    batchSize: config.indexing.embeddingBatchSize,
  };
}
