import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { EmbeddedDocIndex } from './embedded-store.js';
import { modelEmbedder } from './embeddings.js';
import { QueryEmbedder } from './query-embedder.js';
import type { WritableDocIndex } from './indexed.js';
import { QdrantDocIndex } from './qdrant-store.js';

/**
 * The store both processes open: Qdrant when `QDRANT_URL` is set, else the
 * embedded index under `<dataDir>/index/`. Dense vectors join the keyword
 * ranking when an embedding model is configured.
 * `redis` is accepted for symmetry with the other stores; no store needs it yet.
 */
export function openDocIndex(config: Config, _redis?: Redis): WritableDocIndex {
  const embedder = config.embedding ? modelEmbedder(config.embedding) : undefined;
  const queries = new QueryEmbedder(embedder, config.embedding?.queryTimeoutMs ?? 0);
  if (config.qdrant) return new QdrantDocIndex(config.qdrant, queries, config.embedding?.dimensions);
  return new EmbeddedDocIndex(path.join(config.dataDir, 'index'), queries);
}
