import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

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
  put(embedderId: string, entries: Array<{ text: string; vector: number[] }>): void;
  close(): void;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS vectors (
  text_hash TEXT NOT NULL,
  embedder TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (text_hash, embedder)
) WITHOUT ROWID`;

/** Long enough for another worker's insert of one batch; the wait blocks, so it stays short. */
const BUSY_TIMEOUT_MS = 5_000;

const textHash = (text: string) => createHash('sha256').update(text).digest('hex');

/** Float64 keeps a cached vector identical to the one the model returned. */
const toBlob = (vector: number[]) => Buffer.from(Float64Array.from(vector).buffer);
const fromBlob = (blob: Buffer) => Array.from(new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8));

/** The cache in a SQLite file (WAL: several workers may share it; one write per embeddings request). */
export function openVectorCache(file: string): VectorCache {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  // A power cut may drop the last batches (they are embedded again), never tear the file.
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  fs.chmodSync(file, 0o600);
  const select = db.prepare<[string, string], { vector: Buffer }>('SELECT vector FROM vectors WHERE text_hash = ? AND embedder = ?');
  const insert = db.prepare<[string, string, Buffer]>('INSERT OR REPLACE INTO vectors (text_hash, embedder, vector) VALUES (?, ?, ?)');
  const insertAll = db.transaction((embedderId: string, entries: Array<{ text: string; vector: number[] }>) => {
    for (const { text, vector } of entries) insert.run(textHash(text), embedderId, toBlob(vector));
  });
  return {
    get: (embedderId, texts) =>
      texts.map((text) => {
        const row = select.get(textHash(text), embedderId);
        return row ? fromBlob(row.vector) : undefined;
      }),
    put: (embedderId, entries) => {
      if (entries.length > 0) insertAll(embedderId, entries);
    },
    close: () => db.close(),
  };
}
