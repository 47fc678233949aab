import { createHash } from 'node:crypto';
import { openDatabase, statement, writeTransaction } from '../store/index.js';

/**
 * Vectors already paid for, keyed by the hash of the embedded text and the
 * embedder's identity (model and dimensions). A re-index, a retried
 * activity or another domain with the same page asks the model only for
 * texts it has never embedded with that model.
 */
export interface VectorCache {
  /** The cached vector of each text, by position; undefined where there is none. */
  get(embedderId: string, texts: string[]): Array<number[] | undefined>;
  /** Stores vectors as soon as a request returns, so a crash loses at most the request in flight. */
  put(embedderId: string, entries: Array<{ text: string; vector: number[] }>): Promise<void>;
}

const SCHEMA = `CREATE TABLE vectors (
  text_hash TEXT NOT NULL,
  embedder TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (text_hash, embedder)
) WITHOUT ROWID`;

const textHash = (text: string) => createHash('sha256').update(text).digest('hex');

/** Float64 keeps a cached vector identical to the one the model returned. */
const toBlob = (vector: number[]) => Buffer.from(Float64Array.from(vector).buffer);
const fromBlob = (blob: Buffer) => Array.from(new Float64Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)));

const isVectorRow = (row: unknown): row is { vector: Buffer } =>
  typeof row === 'object' && row !== null && 'vector' in row && Buffer.isBuffer(row.vector);

/** The cache in a SQLite file shared by the workers of one data directory; one write per embeddings request. */
export function openVectorCache(file: string): VectorCache {
  // A power cut may drop the last batches (they are embedded again), never tear the file.
  const db = openDatabase(file, { durability: 'normal', schema: SCHEMA });
  const select = 'SELECT vector FROM vectors WHERE text_hash = ? AND embedder = ?';
  const insert = 'INSERT OR REPLACE INTO vectors (text_hash, embedder, vector) VALUES (?, ?, ?)';
  return {
    get: (embedderId, texts) =>
      texts.map((text) => {
        const row: unknown = statement(db, select).get(textHash(text), embedderId);
        return isVectorRow(row) ? fromBlob(row.vector) : undefined;
      }),
    put: async (embedderId, entries) => {
      if (entries.length === 0) return;
      await writeTransaction(db, () => {
        for (const { text, vector } of entries) statement(db, insert).run(textHash(text), embedderId, toBlob(vector));
      });
    },
  };
}
