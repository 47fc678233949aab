import fs from 'node:fs/promises';
import path from 'node:path';
import { listPageFiles, PageSyntaxError, readNavigation } from '../docs/index.js';
import { embedTexts, type ChunkEmbedding } from './embed-texts.js';
import type { IndexedPage, WritableDocIndex } from './indexed.js';
import { pageEmbeddingText } from './page-embedding.js';
import { pageHash, pagePathOf, readPage, type ReadPageOptions } from './read-page.js';

/** Page files read ahead of the one being parsed. */
const READ_AHEAD = 32;

export interface BrokenPage {
  path: string;
  reason: string;
}

/** What a batch of page files changed; counts and paths only, so it fits in workflow history. */
export interface BatchSummary {
  added: number;
  updated: number;
  unchanged: number;
  /** Pages that were indexed before and are hidden now (they leave the index). */
  hidden: number;
  /** Chunks written. */
  chunks: number;
  /** Dense vectors written: one per page with an embedding model (on its first chunk), else none. */
  vectors: number;
  /** Of those, how many got their vector from the vector cache rather than the model. */
  cachedVectors: number;
  broken: BrokenPage[];
}

export interface IndexSummary extends Omit<BatchSummary, 'hidden'> {
  /** Pages the index holds for the domain after the run. */
  pages: number;
  removed: number;
  seconds: number;
}

export interface IndexFilesOptions {
  /** Index every page file, whatever the site's navigation and frontmatter say (the domain option). */
  includeHidden: boolean;
  /** The domain's language (a BCP 47 tag), whose stemmer cuts the pages that state no language of their own; undefined: English. */
  language?: string | undefined;
  /** Called after each page file. */
  onProgress?: (done: number) => void;
  /** Pages per write; each write is one atomic replacement of the domain's index. */
  batchSize?: number;
  /** Gives every written chunk a dense vector; absent: keyword only. */
  embedding?: ChunkEmbedding | undefined;
  /** Called as vectors arrive: pages with a vector, pages needing one so far. */
  onEmbedded?: (ready: number, total: number) => void;
}

/**
 * Indexes some page files of a docs folder incrementally: a page whose hash
 * is unchanged is not parsed again; a page that became hidden leaves the
 * index; a broken page is reported and keeps its previous entry.
 */
export async function indexFiles(
  index: WritableDocIndex,
  domainId: string,
  docsRoot: string,
  files: string[],
  options: IndexFilesOptions,
): Promise<BatchSummary> {
  const navigation = await readNavigation(docsRoot);
  const embedding = options.embedding;
  const pageOptions: ReadPageOptions = {
    navigation,
    scope: options.includeHidden ? 'everything' : 'site',
    vectors: embedding?.embedder.id,
    ...(options.language ? { language: options.language } : {}),
  };
  const previous = await index.pageHashes(domainId);
  const summary: BatchSummary = { added: 0, updated: 0, unchanged: 0, hidden: 0, chunks: 0, vectors: 0, cachedVectors: 0, broken: [] };
  let upserts: IndexedPage[] = [];
  let removals: string[] = [];
  let vectorsReady = 0;
  let vectorsWanted = 0;
  const flush = async () => {
    if (upserts.length === 0 && removals.length === 0) return;
    if (embedding) {
      // One vector per page, kept on its first chunk (see pageEmbeddingText).
      const pages = upserts.filter((p) => p.chunks.length > 0);
      const before = vectorsReady;
      vectorsWanted += pages.length;
      const { vectors, cached } = await embedTexts(pages.map(pageEmbeddingText), embedding, (ready) => {
        vectorsReady = before + ready;
        options.onEmbedded?.(vectorsReady, vectorsWanted);
      });
      pages.forEach((page, i) => (page.chunks[0]!.vector = vectors[i]));
      summary.vectors += pages.length;
      summary.cachedVectors += cached;
    }
    await index.applyChanges(domainId, { upserts, removals });
    upserts = [];
    removals = [];
  };
  // Reads run a window ahead of parsing so the disk and the parser overlap.
  const read = (file: string) => {
    const text = fs.readFile(path.join(docsRoot, file)).then(pageText);
    // Marked handled now; the loop awaits it (and reports its failure) when it gets there.
    text.catch(() => undefined);
    return text;
  };
  const pending = new Map<number, Promise<string>>();
  const readAhead = (from: number) => {
    for (let j = from; j < Math.min(files.length, from + READ_AHEAD); j++) if (!pending.has(j)) pending.set(j, read(files[j]!));
  };
  for (const [i, file] of files.entries()) {
    const pagePath = pagePathOf(file);
    readAhead(i);
    const reading = pending.get(i) ?? read(file);
    pending.delete(i);
    try {
      const text = await reading;
      const source = { file, text };
      if (previous.get(pagePath) === pageHash(source, pageOptions)) {
        summary.unchanged++;
      } else {
        const page = readPage(source, pageOptions);
        if (page) {
          upserts.push(page);
          summary.chunks += page.chunks.length;
          if (previous.has(pagePath)) summary.updated++;
          else summary.added++;
        } else if (previous.has(pagePath)) {
          removals.push(pagePath);
          summary.hidden++;
        }
        if (upserts.length >= (options.batchSize ?? 500)) await flush();
      }
    } catch (err) {
      summary.broken.push({ path: pagePath, reason: brokenReason(err) });
    }
    options.onProgress?.(i + 1);
  }
  await flush();
  return summary;
}

/** A page file that is not text: a binary file named .mdx, a page in another encoding. */
class NotTextError extends Error {
  override name = 'NotTextError';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A page file's text; a file with NUL bytes or that is not UTF-8 is no page (its bytes would be indexed as garbage). */
function pageText(bytes: Buffer): string {
  if (bytes.includes(0)) throw new NotTextError('not a text file (it holds NUL bytes)');
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new NotTextError('not UTF-8 text: save the page as UTF-8');
  }
}

function brokenReason(err: unknown): string {
  if (err instanceof PageSyntaxError) return `line ${err.line}: ${err.reason}`;
  // A file the worker could not read: its code, never the worker's path to it.
  const code = typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
  if (code && !(err instanceof NotTextError)) return `the file could not be read (${code})`;
  return err instanceof Error ? err.message : String(err);
}

/** Removes the pages whose files left the docs folder; returns how many. */
export async function removeDeletedPages(index: WritableDocIndex, domainId: string, docsRoot: string): Promise<number> {
  const present = new Set((await listPageFiles(docsRoot)).map(pagePathOf));
  const removals = [...(await index.pageHashes(domainId)).keys()].filter((p) => !present.has(p));
  if (removals.length > 0) await index.applyChanges(domainId, { upserts: [], removals });
  return removals.length;
}

/** Indexes a whole docs folder in one call (the CLI without Temporal, the benchmark, tests). */
export async function indexDocs(
  index: WritableDocIndex,
  domainId: string,
  docsRoot: string,
  options: IndexFilesOptions,
): Promise<IndexSummary> {
  const started = performance.now();
  const files = await listPageFiles(docsRoot);
  const { hidden: _hidden, ...batch } = await indexFiles(index, domainId, docsRoot, files, options);
  const removed = (await removeDeletedPages(index, domainId, docsRoot)) + _hidden;
  return {
    ...batch,
    pages: (await index.pageHashes(domainId)).size,
    removed,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}
