import fs from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../store/file-lock.js';
import { cosine, embeddingText, type Embedder } from './embeddings.js';
import { matchesFilter, visibleTo } from './filter.js';
import { reciprocalRankFusion } from './fusion.js';
import { normalisePagePath, type PageChanges, type WritableDocIndex } from './indexed.js';
import { byPath, listingOf } from './page-listing.js';
import { chunkTerms, KeywordIndex } from './keyword-index.js';
import {
  appendChange,
  applyChange,
  compactSnapshot,
  fileStamp,
  loadSnapshot,
  type LoadedSnapshot,
  type Snapshot,
  type SnapshotChange,
  type StoredChunk,
} from './snapshot-file.js';
import type { PageContent, PageListing, SearchHit, SearchQuery } from './types.js';

/** How many candidates each ranking contributes before fusion. */
const CANDIDATES = 50;
/** The reader's current page is a hint, not a verdict. */
const CURRENT_PAGE_BOOST = 1.15;

interface LoadedDomain extends LoadedSnapshot {
  /** Built on the first search, so a writer that never searches never pays for it. */
  keyword: KeywordIndex | undefined;
}

/**
 * The journal is folded into the base file once it outgrows it (so the bytes
 * written over a whole first index stay linear) or holds many batches (so a
 * load replays few); below the floor a re-index only appends what changed.
 */
const COMPACT_FLOOR_BYTES = 4 * 1024 * 1024;
const COMPACT_ENTRIES = 64;

/** Builds the in-memory search structures of one snapshot. */
export function buildKeywordIndex(snapshot: Snapshot): KeywordIndex {
  return new KeywordIndex(snapshot.chunks.map((c) => c.terms));
}

/**
 * The default store: one snapshot file per domain under `<dataDir>/index/`.
 * Readers reload a domain when its file changes, so the worker's writes reach
 * the API without a restart; writers take a cross-process lock.
 */
export class EmbeddedDocIndex implements WritableDocIndex {
  private readonly domains = new Map<string, LoadedDomain>();

  constructor(private readonly dir: string, private readonly embedder?: Embedder) {}

  private fileOf(domainId: string): string {
    return path.join(this.dir, `${encodeURIComponent(domainId)}.json`);
  }

  private async domain(domainId: string): Promise<LoadedDomain> {
    const file = this.fileOf(domainId);
    const cached = this.domains.get(domainId);
    if (cached?.stamp === (await fileStamp(file))) return cached;
    const loaded = { ...(await loadSnapshot(file)), keyword: undefined };
    this.domains.set(domainId, loaded);
    return loaded;
  }

  async search(domainId: string, query: SearchQuery): Promise<SearchHit[]> {
    const loaded = await this.domain(domainId);
    const keyword = (loaded.keyword ??= buildKeywordIndex(loaded.snapshot));
    const snapshot = loaded.snapshot;
    const vector = this.embedder && (await this.embedder.embed([query.query]))[0];
    return searchLoaded(snapshot, keyword, query, vector);
  }

  async getPage(domainId: string, pagePath: string, groups?: string[]): Promise<PageContent | undefined> {
    const { snapshot } = await this.domain(domainId);
    const page = snapshot.pages[normalisePagePath(pagePath)];
    if (!page || !visibleTo(page.groups, groups)) return undefined;
    return { path: page.path, title: page.title, content: page.content };
  }

  async listPages(domainId: string, options: { content?: boolean } = {}): Promise<PageListing[]> {
    const { snapshot } = await this.domain(domainId);
    return Object.values(snapshot.pages)
      .sort(byPath)
      .map((page) => listingOf(page, options.content === true));
  }

  /** The stamp of the snapshot and its journal: every write changes it (a compaction too, costing one needless re-render). */
  async generation(domainId: string): Promise<string> {
    return (await this.domain(domainId)).stamp;
  }

  async pageHashes(domainId: string): Promise<Map<string, string>> {
    const { snapshot } = await this.domain(domainId);
    return new Map(Object.values(snapshot.pages).map((p) => [p.path, p.hash]));
  }

  async applyChanges(domainId: string, changes: PageChanges): Promise<void> {
    const fresh = changes.upserts.flatMap((p) => p.chunks);
    const vectors = this.embedder && fresh.length > 0 ? await this.embedder.embed(fresh.map(embeddingText)) : undefined;
    const stored: StoredChunk[] = fresh.map((chunk, i) => ({
      ...chunk,
      terms: [...chunkTerms(chunk)],
      ...(vectors?.[i] ? { vector: vectors[i] } : {}),
    }));
    const change: SnapshotChange = {
      removals: [...new Set([...changes.removals, ...changes.upserts.map((p) => p.path)])],
      pages: changes.upserts.map(({ chunks: _chunks, ...page }) => page),
      chunks: stored,
    };
    const file = this.fileOf(domainId);
    await withFileLock(file, async () => {
      // Under the lock the files cannot change; a cached copy of the same files saves a load.
      const current = await this.domain(domainId);
      // A new object: searches running meanwhile keep the snapshot their keyword index was built from.
      const snapshot = applyChange(current.snapshot, change);
      const compact =
        current.journalEntries >= COMPACT_ENTRIES || current.journalBytes > Math.max(current.baseBytes, COMPACT_FLOOR_BYTES);
      let { baseBytes, journalBytes, journalEntries } = current;
      if (compact) {
        await compactSnapshot(file, snapshot);
        baseBytes = (await fs.stat(file)).size;
        journalBytes = journalEntries = 0;
      } else {
        journalBytes = await appendChange(file, change, journalBytes);
        journalEntries++;
      }
      this.domains.set(domainId, { stamp: await fileStamp(file), snapshot, keyword: undefined, baseBytes, journalBytes, journalEntries });
    });
  }

  async ping(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await fs.access(this.dir, fs.constants.W_OK);
  }

  async close(): Promise<void> {
    this.domains.clear();
  }
}

/** Keyword ranking, plus dense ranking when a query vector is given, fused by reciprocal rank. */
export function searchLoaded(snapshot: Snapshot, keyword: KeywordIndex, query: SearchQuery, vector?: number[]): SearchHit[] {
  const chunks = snapshot.chunks;
  const accept = (i: number) => matchesFilter(chunks[i]!, query.filter);
  const current = query.currentPath ? normalisePagePath(query.currentPath) : undefined;
  const boost = current ? (i: number) => (chunks[i]!.path === current ? CURRENT_PAGE_BOOST : 1) : undefined;
  let ranked = keyword.search(query.query, vector ? CANDIDATES : query.pageSize, accept, boost, CURRENT_PAGE_BOOST);
  if (vector) {
    const dense: Array<{ index: number; score: number }> = [];
    chunks.forEach((chunk, index) => {
      if (chunk.vector && accept(index)) dense.push({ index, score: cosine(vector, chunk.vector) * (boost?.(index) ?? 1) });
    });
    dense.sort((a, b) => b.score - a.score);
    const fused = reciprocalRankFusion([ranked.map((r) => r.index), dense.slice(0, CANDIDATES).map((d) => d.index)]);
    ranked = [...fused].map(([index, score]) => ({ index, score })).sort((a, b) => b.score - a.score);
  }
  return ranked
    .filter((r) => query.scoreThreshold === undefined || r.score >= query.scoreThreshold)
    .slice(0, query.pageSize)
    .map(({ index, score }) => {
      const c = chunks[index]!;
      return {
        content: c.content,
        path: c.path,
        metadata: {
          title: c.title,
          anchor: c.anchor,
          breadcrumb: c.breadcrumb,
          score: Math.round(score * 1e4) / 1e4,
          ...(c.version ? { version: c.version } : {}),
          ...(c.language ? { language: c.language } : {}),
        },
      };
    });
}
