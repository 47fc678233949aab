import fs from 'node:fs/promises';
import path from 'node:path';
import { writeJsonAtomic } from '../store/atomic-file.js';
import type { IndexedChunk, IndexedPage } from './indexed.js';

/** A page as the embedded store keeps it (its chunks live beside it). */
export type StoredPage = Omit<IndexedPage, 'chunks'>;

export interface StoredChunk extends IndexedChunk {
  /** Weighted term frequencies, so a load does not tokenise again. */
  terms: Array<[string, number]>;
  vector?: number[];
}

/** One domain's index on disk: a compact JSON snapshot, replaced atomically. */
export interface Snapshot {
  format: 1;
  pages: Record<string, StoredPage>;
  chunks: StoredChunk[];
}

const isMissing = (err: unknown): boolean => err instanceof Error && 'code' in err && err.code === 'ENOENT';

export const emptySnapshot = (): Snapshot => ({ format: 1, pages: {}, chunks: [] });

/** File identity: changes whenever a writer (this process or another) replaces the file. */
export async function fileStamp(file: string): Promise<string> {
  try {
    const st = await fs.stat(file);
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch (err) {
    if (isMissing(err)) return 'missing';
    throw err;
  }
}

export async function readSnapshot(file: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return emptySnapshot();
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isSnapshot(parsed)) throw new Error(`index file ${path.basename(file)} is not a Quire index snapshot`);
  return parsed;
}

function isSnapshot(value: unknown): value is Snapshot {
  return typeof value === 'object' && value !== null && 'format' in value && value.format === 1 && 'chunks' in value;
}

/** Replaces a domain's snapshot atomically (compact JSON: pretty-printing would double a large index). */
export async function writeSnapshot(file: string, snapshot: Snapshot): Promise<void> {
  await writeJsonAtomic(file, snapshot);
}
