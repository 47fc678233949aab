import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { ModelPort } from '../model/index.js';
import type { ChunkEmbedding, Embedder } from '../retrieval/index.js';

/** Redis when the deployment has one (rate limits shared across replicas, pub/sub wake-ups); else none. */
export type RedisLink = { configured: true; client: Redis } | { configured: false };

/** The chat model: one pooled port when `QUIRE_MODEL` is set, else none (the assistant answers extractively). */
export type ChatModel = { configured: true; settings: NonNullable<Config['model']>; port: ModelPort } | { configured: false };

/**
 * The embeddings endpoint when one is configured: one embedder (one connection pool) that both
 * ranks queries and embeds indexed chunks behind the vector cache. Else keyword retrieval only.
 */
export type Embeddings = { configured: true; port: ModelPort; embedder: Embedder; chunks: ChunkEmbedding } | { configured: false };

/** Redis's client when there is one: what the limiter and the engine classifier take. */
export function redisClient(redis: RedisLink): Redis | undefined {
  return redis.configured ? redis.client : undefined;
}
