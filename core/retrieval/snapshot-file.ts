import fs from 'node:fs/promises';
import path from 'node:path';
import type { IndexedChunk, IndexedPage } from './indexed.js';
import { writeJsonAtomic } from '../store/atomic-file.js';

/** A page as the embedded store keeps it (its chunks live beside it). */
export type StoredPage = Omit<IndexedPage, 'chunks'>;

export interface StoredChunk extends IndexedChunk {
  /** Weighted term frequencies, so a load does not tokenise again. */
  terms: Array<[string, number]>;
  vector?: number[];
}

/** One domain's index: a compact JSON base file, plus the changes appended since (see `appendChange`). */
export interface Snapshot {
  format: 1;
  pages: Record<string, StoredPage>;
  chunks: StoredChunk[];
}

/** One batch of changes as the journal stores it: pages whose entries go, then pages and chunks that come. */
export interface SnapshotChange {
  removals: string[];
  pages: StoredPage[];
  chunks: StoredChunk[];
}

export interface LoadedSnapshot {
  snapshot: Snapshot;
  stamp: string;
  baseBytes: number;
  /** Bytes of whole journal lines; anything after them is a torn append to cut off. */
  journalBytes: number;
  journalEntries: number;
}

const isMissing = (err: unknown): boolean => err instanceof Error && 'code' in err && err.code === 'ENOENT';

export const emptySnapshot = (): Snapshot => ({ format: 1, pages: {}, chunks: [] });

/** The journal of changes beside a base file. */
export const journalOf = (file: string): string => file.replace(/\.json$/, '') + '.changes.jsonl';

async function statStamp(file: string): Promise<string> {
  try {
    const st = await fs.stat(file);
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch (err) {
    if (isMissing(err)) return 'missing';
    throw err;
  }
}

/** The stamp of a domain with neither file. */
export const MISSING_STAMP = 'missing+missing';

/** Identity of a domain's files: changes whenever a writer (this process or another) replaces the base or appends. */
export async function fileStamp(file: string): Promise<string> {
  // Every search asks: the two stats run side by side so a search waits for one.
  const [base, journal] = await Promise.all([statStamp(file), statStamp(journalOf(file))]);
  return `${base}+${journal}`;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** A new snapshot with one change applied; the old one stays as it was (searches may be using it). */
export function applyChange(current: Snapshot, change: SnapshotChange): Snapshot {
  const pages = { ...current.pages };
  const replaced = new Set(change.removals);
  for (const gone of change.removals) delete pages[gone];
  for (const page of change.pages) pages[page.path] = page;
  const kept = replaced.size > 0 ? current.chunks.filter((c) => !replaced.has(c.path)) : current.chunks;
  return { format: 1, pages, chunks: kept.concat(change.chunks) };
}

/** Reads the base file and replays the journal's whole lines; reads again if a writer compacted meanwhile. */
export async function loadSnapshot(file: string): Promise<LoadedSnapshot> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await readFiles(file);
    if (attempt === 3 || (await fileStamp(file)) === loaded.stamp) return loaded;
  }
}

async function readFiles(file: string): Promise<LoadedSnapshot> {
  const stamp = await fileStamp(file);
  const text = await readIfExists(file);
  let snapshot = emptySnapshot();
  if (text !== undefined) {
    const parsed: unknown = JSON.parse(text);
    if (!isSnapshot(parsed)) throw new Error(`index file ${path.basename(file)} is not a Quire index snapshot`);
    snapshot = parsed;
  }
  const journal = (await readIfExists(journalOf(file))) ?? '';
  const whole = journal.lastIndexOf('\n') + 1;
  const lines = journal.slice(0, whole).split('\n').filter(Boolean);
  for (const line of lines) {
    const change: unknown = JSON.parse(line);
    if (!isChange(change)) throw new Error(`index journal ${path.basename(journalOf(file))} holds a line that is not a change`);
    snapshot = applyChange(snapshot, change);
  }
  return {
    snapshot,
    stamp,
    baseBytes: Buffer.byteLength(text ?? ''),
    journalBytes: Buffer.byteLength(journal.slice(0, whole)),
    journalEntries: lines.length,
  };
}

function isChange(value: unknown): value is SnapshotChange {
  return typeof value === 'object' && value !== null && 'removals' in value && 'pages' in value && 'chunks' in value;
}

function isSnapshot(value: unknown): value is Snapshot {
  return typeof value === 'object' && value !== null && 'format' in value && value.format === 1 && 'chunks' in value;
}

/**
 * Appends one change to the journal, first cutting off a torn append left by
 * a crash, so a re-index writes what changed, not the whole index. Returns the
 * journal's new size. Replaying a change twice is harmless: it removes and
 * re-adds the same pages.
 */
export async function appendChange(file: string, change: SnapshotChange, journalBytes: number): Promise<number> {
  const journal = journalOf(file);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const line = `${JSON.stringify(change)}\n`;
  const handle = await fs.open(journal, 'a+', 0o600);
  try {
    if ((await handle.stat()).size !== journalBytes) await handle.truncate(journalBytes);
    await handle.appendFile(line);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return journalBytes + Buffer.byteLength(line);
}

/** Folds the journal into a new base file, then drops the journal. */
export async function compactSnapshot(file: string, snapshot: Snapshot): Promise<void> {
  await writeSnapshot(file, snapshot);
  await fs.rm(journalOf(file), { force: true });
}

/** Replaces a domain's snapshot atomically (compact JSON: pretty-printing would double a large index). */
export async function writeSnapshot(file: string, snapshot: Snapshot): Promise<void> {
  await writeJsonAtomic(file, snapshot);
}

/** Removes a domain's base file and journal (the caller holds the writers' lock). */
export async function dropSnapshot(file: string): Promise<void> {
  await fs.rm(file, { force: true });
  await fs.rm(journalOf(file), { force: true });
}
