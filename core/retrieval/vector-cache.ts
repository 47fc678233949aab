import { createHash } from 'node:crypto';
import type { Database } from '../db/index.js';

/**
 * Vectors already paid for, keyed by the hash of the embedded text and the
 * embedder's identity (model, dimensions, input marking). A re-index, a retried
 * activity or another domain with the same page asks the model only for
 * texts it has never embedded with that model.
 */
export interface VectorCache {
  /** The cached vector of each text, by position; undefined where there is none. */
  get(embedderId: string, texts: string[]): Promise<Array<number[] | undefined>>;
  /** Stores vectors as soon as a request returns, so a crash loses at most the request in flight. */
  put(embedderId: string, entries: Array<{ text: string; vector: number[] }>): Promise<void>;
}

const textHash = (text: string) => createHash('sha256').update(text).digest('hex');

/** Float64 keeps a cached vector identical to the one the model returned. */
const toBytes = (vector: number[]) => Buffer.from(Float64Array.from(vector).buffer);
const fromBytes = (bytes: Uint8Array) => Array.from(new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));

/** Hashes one query reads at most: keeps a statement's parameters well under both dialects' limits. */
const READ_SLICE = 500;

/** The cache in the `embeddings` table of the system of record, shared by every worker; one write per embeddings request. */
export function createVectorCache(database: Database): VectorCache {
  const q = database.queries;
  return {
    async get(embedderId, texts) {
      const hashes = texts.map(textHash);
      const found = new Map<string, number[]>();
      const unique = [...new Set(hashes)];
      for (let i = 0; i < unique.length; i += READ_SLICE) {
        const rows = await q
          .selectFrom('embeddings')
          .select(['text_hash', 'vector'])
          .where('embedder', '=', embedderId)
          .where('text_hash', 'in', unique.slice(i, i + READ_SLICE))
          .execute();
        for (const row of rows) found.set(row.text_hash, fromBytes(row.vector));
      }
      return hashes.map((h) => found.get(h));
    },
    async put(embedderId, entries) {
      if (entries.length === 0) return;
      const rows = new Map(entries.map(({ text, vector }) => [textHash(text), { text_hash: textHash(text), embedder: embedderId, vector: toBytes(vector) }]));
      await database.transaction(async (trx) => {
        await trx
          .insertInto('embeddings')
          .values([...rows.values()])
          .onConflict((c) => c.columns(['text_hash', 'embedder']).doUpdateSet((eb) => ({ vector: eb.ref('excluded.vector') })))
          .execute();
      });
    },
  };
}
