import path from 'node:path';
import type { Config } from '../config.js';
import { EmbeddedDocIndex } from './embedded-store.js';
import type { Embedder } from './embeddings.js';
import { QueryEmbedder } from './query-embedder.js';
import type { WritableDocIndex } from './indexed.js';
import { QdrantDocIndex } from './qdrant-store.js';

/**
 * The docs index of the configuration: Qdrant when `QDRANT_URL` is set, else the embedded index
 * under `<dataDir>/index/`. Dense vectors from `embedder` join the keyword ranking when there is one.
 * Opened once per process, by the platform.
 */
export function openDocIndex(config: Config, embedder: Embedder | undefined): WritableDocIndex {
  const queries = new QueryEmbedder(embedder, config.embedding?.queryTimeoutMs ?? 0);
  if (config.qdrant) return new QdrantDocIndex(config.qdrant, queries, config.embedding?.dimensions);
  return new EmbeddedDocIndex(path.join(config.dataDir, 'index'), queries);
}
