import path from 'node:path';
import type { Config } from '../config.js';
import type { ChunkEmbedding } from './embed-texts.js';
import { modelEmbedder } from './embeddings.js';
import { openVectorCache } from './vector-cache.js';

/** Where the vector cache lives: beside the index, shared by every domain (equal texts embed once). */
export const vectorCacheFile = (dataDir: string) => path.join(dataDir, 'vector-cache.db');

/**
 * How the indexing worker embeds chunks: the configured embedding model
 * through the model port, behind the vector cache under the data directory.
 * Undefined when no embedding model is set (keyword retrieval only). Open
 * it once per process: it holds a connection pool and the cache file.
 */
export function openChunkEmbedding(config: Config): ChunkEmbedding | undefined {
  if (!config.embedding) return undefined;
  return {
    embedder: modelEmbedder(config.embedding),
    cache: openVectorCache(vectorCacheFile(config.dataDir)),
    batchSize: config.indexing.embeddingBatchSize,
  };
}
