import fs from 'node:fs/promises';
import path from 'node:path';
import { listPageFiles } from './docs-source.js';
import type { IndexedPage, WritableDocIndex } from './indexed.js';
import { readNavigation } from './navigation.js';
import { pageHash, pagePathOf, readPage } from './read-page.js';

export interface BrokenPage {
  path: string;
  reason: string;
}

/** What a run changed; counts and paths only, so it fits in workflow history. */
export interface IndexSummary {
  pages: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Chunks written in this run. */
  chunks: number;
  seconds: number;
  broken: BrokenPage[];
}

export interface IndexDocsOptions {
  includeHidden: boolean;
  /** Called after each page file; `done` of `total`. */
  onProgress?: (done: number, total: number) => void;
  /** Pages per write; each write is one atomic replacement of the domain's index. */
  batchSize?: number;
}

/**
 * Indexes a docs folder incrementally: a page whose hash is unchanged is not
 * parsed again; pages that left the folder (or became hidden) leave the index;
 * a broken page is reported and keeps its previous entry.
 */
export async function indexDocs(
  index: WritableDocIndex,
  domainId: string,
  docsRoot: string,
  options: IndexDocsOptions,
): Promise<IndexSummary> {
  const started = performance.now();
  const navigation = await readNavigation(docsRoot);
  const files = await listPageFiles(docsRoot);
  const previous = await index.pageHashes(domainId);
  const seen = new Set<string>();
  const broken: BrokenPage[] = [];
  let batch: IndexedPage[] = [];
  const summary = { added: 0, updated: 0, unchanged: 0, chunks: 0 };
  const flush = async () => {
    if (batch.length === 0) return;
    await index.applyChanges(domainId, { upserts: batch, removals: [] });
    batch = [];
  };

  for (const [i, file] of files.entries()) {
    const pagePath = pagePathOf(file);
    try {
      if (seen.has(pagePath)) throw new Error(`another file already has the path ${pagePath}`);
      const text = await fs.readFile(path.join(docsRoot, file), 'utf8');
      const source = { file, text };
      const hash = pageHash(source, navigation?.pages.get(pagePath), options.includeHidden);
      if (previous.get(pagePath) === hash) {
        seen.add(pagePath);
        summary.unchanged++;
      } else {
        const page = readPage(source, { navigation, includeHidden: options.includeHidden });
        if (page) {
          seen.add(pagePath);
          batch.push(page);
          summary.chunks += page.chunks.length;
          if (previous.has(pagePath)) summary.updated++;
          else summary.added++;
          if (batch.length >= (options.batchSize ?? 500)) await flush();
        }
      }
    } catch (err) {
      // A broken page keeps whatever the index held for it before.
      if (previous.has(pagePath)) seen.add(pagePath);
      broken.push({ path: pagePath, reason: err instanceof Error ? err.message : String(err) });
    }
    options.onProgress?.(i + 1, files.length);
  }
  await flush();
  const removals = [...previous.keys()].filter((p) => !seen.has(p));
  if (removals.length > 0) await index.applyChanges(domainId, { upserts: [], removals });
  return {
    pages: seen.size,
    ...summary,
    removed: removals.length,
    seconds: Math.round((performance.now() - started) / 10) / 100,
    broken,
  };
}
