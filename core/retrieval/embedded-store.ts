import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../store/file-lock.js';
import { cosine } from './embeddings.js';
import { QueryEmbedder, type RetrievalMode } from './query-embedder.js';
import { canonicalFilter, matchesFilter, visibleTo } from './filter.js';
import { reciprocalRankFusion } from './fusion.js';
import { normalisePagePath, type PageChanges, type WritableDocIndex } from './indexed.js';
import { byPath, listingOf } from './page-listing.js';
import { chunkTerms, type RankedDoc } from './keyword-index.js';
import { queryLanguages } from './query-terms.js';
import { buildKeywordIndexes, hiddenFrom, queryTermsFor, rankPages, titlesFirst, type KeywordIndexes, type RankedPage } from './page-ranking.js';
import {
  appendChange,
  applyChange,
  compactSnapshot,
  dropSnapshot,
  fileStamp,
  MISSING_STAMP,
  loadSnapshot,
  type LoadedSnapshot,
  type Snapshot,
  type SnapshotChange,
  type StoredChunk,
} from './snapshot-file.js';
import type { PageContent, PageListing, SearchHit, SearchQuery, Vocabulary } from './types.js';

/** How many candidates each ranking contributes before fusion. */
const CANDIDATES = 50;
/**
 * How keyword and page-vector rankings are fused (weighted reciprocal rank),
 * tuned on the dev split of the eval's question sets (see README, Retrieval eval).
 */
export interface Fusion {
  k: number;
  keywordWeight: number;
  denseWeight: number;
  /** Pages the vector ranking contributes: past its head, closeness says little and would lift every keyword match. */
  denseCandidates: number;
}
/**
 * On the 145 dev questions (eval/tune-fusion.ts) this took recall@5 from 0.931 to 0.952 and MRR@10
 * from 0.867 to 0.872 against k 20, equal weights and 50 dense candidates; any 8 to 30 candidates
 * scored within 0.002 of it, where at k 20 only 10 did.
 */
export const FUSION: Fusion = { k: 5, keywordWeight: 1, denseWeight: 0.75, denseCandidates: 10 };
/** The reader's current page is a hint, not a verdict. */
const CURRENT_PAGE_BOOST = 1.15;

interface LoadedDomain extends LoadedSnapshot {
  /** Built on the first search, so a writer that never searches never pays for it. */
  keyword: KeywordIndexes | undefined;
  /** When the files were last found to match `stamp` (performance.now()). */
  checkedAt: number;
  /** The count of change notifications seen when they were. */
  notified: number;
}

/**
 * How long a cached snapshot is trusted without looking at its files while no change was notified:
 * the bound on staleness should a notification be lost (a file system that sends none).
 */
const RECHECK_MS = 1000;

/**
 * The journal is folded into the base file once it outgrows it (so the bytes
 * written over a whole first index stay linear) or holds many batches (so a
 * load replays few); below the floor a re-index only appends what changed.
 */
const COMPACT_FLOOR_BYTES = 4 * 1024 * 1024;
const COMPACT_ENTRIES = 64;

/** Builds the in-memory search structures of one snapshot. */
export function buildKeywordIndex(snapshot: Snapshot): KeywordIndexes {
  return buildKeywordIndexes(snapshot.chunks);
}

/**
 * The default store: one snapshot file per domain under `<dataDir>/index/`.
 * Readers reload a domain when its file changes, so the worker's writes reach
 * the API without a restart (told by a watch on the folder, or at most RECHECK_MS
 * late); writers take a cross-process lock.
 */
export class EmbeddedDocIndex implements WritableDocIndex {
  private readonly domains = new Map<string, LoadedDomain>();
  /** A look at a domain's files under way, per domain. */
  private readonly looking = new Map<string, { look: Promise<LoadedDomain>; notified: number }>();
  /** Watches the index folder: any change there (a writer in any process) is counted in `notified`. */
  private watcher: fsSync.FSWatcher | undefined;
  private notified = 0;

  constructor(private readonly dir: string, private readonly queries: QueryEmbedder = new QueryEmbedder(undefined, 0)) {}

  private fileOf(domainId: string): string {
    return path.join(this.dir, `${encodeURIComponent(domainId)}.json`);
  }

  /** Starts watching the folder once it exists; without a watcher every read looks at the files. */
  private watch(): void {
    if (this.watcher) return;
    try {
      const watcher = fsSync.watch(this.dir, { persistent: false }, () => void this.notified++);
      watcher.on('error', () => {
        watcher.close();
        if (this.watcher === watcher) this.watcher = undefined;
        this.notified++;
      });
      this.watcher = watcher;
    } catch {
      // No folder yet (nothing indexed), or no watches left: the files are looked at on every read.
    }
  }

  /**
   * The domain's snapshot. A search does not look at the files (two stats) while nothing changed
   * in the folder: a change notification, or RECHECK_MS since the last look, makes it look again.
   * `verify` always looks (a writer under the lock must start from the files as they are).
   */
  private domain(domainId: string, verify = false): Promise<LoadedDomain> {
    const cached = this.domains.get(domainId);
    if (!verify && cached && this.watcher && cached.notified === this.notified && performance.now() - cached.checkedAt < RECHECK_MS) return Promise.resolve(cached);
    if (verify) return this.look(domainId);
    // The searches that arrive while the files are being looked at share that look, not one each,
    // unless a change was notified after it began.
    const under = this.looking.get(domainId);
    if (under?.notified === this.notified) return under.look;
    const look = this.look(domainId);
    const entry = { look, notified: this.notified };
    this.looking.set(domainId, entry);
    const done = () => {
      if (this.looking.get(domainId) === entry) this.looking.delete(domainId);
    };
    look.then(done, done);
    return look;
  }

  /** Looks at the domain's files: the cached snapshot when they did not change, else a fresh load. */
  private async look(domainId: string): Promise<LoadedDomain> {
    const file = this.fileOf(domainId);
    const cached = this.domains.get(domainId);
    const now = performance.now();
    this.watch();
    // Counted before the look: a change during it makes the next read look again.
    const notified = this.notified;
    const stamp = await fileStamp(file);
    if (cached?.stamp === stamp) {
      cached.checkedAt = now;
      cached.notified = notified;
      return cached;
    }
    const loaded = { ...(await loadSnapshot(file)), keyword: undefined, checkedAt: now, notified };
    // A domain without files (never indexed, or dropped by another process) is not kept: its memory goes.
    if (stamp === MISSING_STAMP) this.domains.delete(domainId);
    else this.domains.set(domainId, loaded);
    return loaded;
  }

  async search(domainId: string, query: SearchQuery): Promise<SearchHit[]> {
    // Asked first (it never rejects): the embedder works on the query while the snapshot is looked at.
    const vectorOf = this.queries.vectorOf(query.query);
    const loaded = await this.domain(domainId);
    const keyword = (loaded.keyword ??= buildKeywordIndex(loaded.snapshot));
    const snapshot = loaded.snapshot;
    const { vector, mode } = await vectorOf;
    return searchLoaded(snapshot, keyword, query, vector, mode);
  }

  /**
   * The pages' keyword index, as a search builds it (and keeps for the next), read as a vocabulary
   * of the pages a reader of `groups` may see: the pages hidden from them are left out of each look-up.
   */
  async vocabulary(domainId: string, groups?: string[]): Promise<Vocabulary> {
    const loaded = await this.domain(domainId);
    const keyword = (loaded.keyword ??= buildKeywordIndex(loaded.snapshot));
    // The same set a search of this reader reads the index without (kept per set of hidden pages).
    const hidden = hiddenFrom(keyword, groups)?.pages;
    return { documentFrequency: (term) => keyword.pages.documentFrequency(term, hidden), nearest: (term) => keyword.typos.correct(term, hidden) };
  }

  async getPage(domainId: string, pagePath: string, groups?: string[]): Promise<PageContent | undefined> {
    const { snapshot } = await this.domain(domainId);
    const page = snapshot.pages[normalisePagePath(pagePath)];
    if (!page || !visibleTo(page.groups, groups)) return undefined;
    return { path: page.path, title: page.title, content: page.content, ...(page.language ? { language: page.language } : {}) };
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
    // Vectors arrive with the chunks (indexing embeds them through the vector cache); this store only keeps them.
    const stored: StoredChunk[] = changes.upserts.flatMap((p) => p.chunks).map(({ vector, ...chunk }) => ({
      ...chunk,
      terms: [...chunkTerms(chunk)],
      ...(vector ? { vector } : {}),
    }));
    const change: SnapshotChange = {
      removals: [...new Set([...changes.removals, ...changes.upserts.map((p) => p.path)])],
      pages: changes.upserts.map(({ chunks: _chunks, ...page }) => page),
      chunks: stored,
    };
    const file = this.fileOf(domainId);
    await withFileLock(file, async () => {
      // Under the lock the files cannot change; a cached copy of the same files saves a load.
      const current = await this.domain(domainId, true);
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
      const notified = this.notified;
      const stamp = await fileStamp(file);
      this.domains.set(domainId, { stamp, snapshot, keyword: undefined, baseBytes, journalBytes, journalEntries, checkedAt: performance.now(), notified });
    });
  }

  async dropDomain(domainId: string): Promise<void> {
    const file = this.fileOf(domainId);
    // Under the writers' lock: a write under way ends first, and none can append to a file removed meanwhile.
    await withFileLock(file, async () => {
      await dropSnapshot(file);
      this.forgetDomain(domainId);
    });
    await fs.rm(`${file}.lock`, { force: true });
  }

  forgetDomain(domainId: string): void {
    this.domains.delete(domainId);
    this.looking.delete(domainId);
  }

  async ping(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await fs.access(this.dir, fs.constants.W_OK);
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    this.domains.clear();
  }
}

/**
 * Pages ranked by keyword (see `rankPages`), and by their best chunk's
 * embedding when a query vector is given, fused by reciprocal rank; each page
 * gives its best chunks, side by side, up to `chunksPerPage`.
 */
export function searchLoaded(
  snapshot: Snapshot,
  indexes: KeywordIndexes,
  query: SearchQuery,
  vector?: number[],
  mode: RetrievalMode = vector ? 'hybrid' : 'keyword',
  fusion: Fusion = FUSION,
): SearchHit[] {
  const chunks = snapshot.chunks;
  const filter = canonicalFilter(query.filter);
  const acceptChunk = (i: number) => matchesFilter(chunks[i]!, filter);
  const current = query.currentPath ? normalisePagePath(query.currentPath) : undefined;
  const boostChunk = current ? (i: number) => (chunks[i]!.path === current ? CURRENT_PAGE_BOOST : 1) : undefined;
  // The pages hidden from the reader are read as absent, not only filtered out: counted, they would
  // shift the reader's scores and let typo correction tell which words restricted pages hold.
  const hidden = hiddenFrom(indexes, filter?.groups);
  const terms = queryTermsFor(indexes, query.query, queryLanguages(query), hidden);
  let ranked = rankPages(indexes, terms, vector ? CANDIDATES : query.pageSize, {
    acceptChunk,
    ...(hidden ? { hidden } : {}),
    ...(boostChunk ? { boostChunk, maxBoost: CURRENT_PAGE_BOOST } : {}),
  });
  if (vector) ranked = fuseDense(indexes, chunks, ranked, vector, acceptChunk, boostChunk, fusion);
  ranked = titlesFirst(indexes, query.query, ranked, (page) => chunks[indexes.pageDocs.firstChunk[page]!]!.path, acceptChunk);
  const perPage = query.chunksPerPage ?? 1;
  return ranked
    .filter((r) => query.scoreThreshold === undefined || r.score >= query.scoreThreshold)
    .slice(0, query.pageSize)
    .flatMap(({ score, chunks: best }) => best.slice(0, perPage).map(({ index }) => hitOf(chunks[index]!, score, mode)));
}

/** Keyword pages and pages by their best chunk's cosine, fused by reciprocal rank. */
function fuseDense(
  indexes: KeywordIndexes,
  chunks: readonly StoredChunk[],
  keyword: RankedPage[],
  vector: number[],
  accept: (i: number) => boolean,
  boost: ((i: number) => number) | undefined,
  fusion: Fusion,
): RankedPage[] {
  const dense: RankedPage[] = [];
  indexes.pageDocs.chunksOf.forEach((ids, page) => {
    if (!accept(ids[0]!)) return;
    let best: RankedDoc | undefined;
    for (const index of ids) {
      const c = chunks[index]!;
      if (!c.vector) continue;
      const score = cosine(vector, c.vector) * (boost?.(index) ?? 1);
      if (!best || score > best.score) best = { index, score };
    }
    if (best) dense.push({ page, score: best.score, chunks: [best] });
  });
  dense.sort((a, b) => b.score - a.score);
  const top = dense.slice(0, fusion.denseCandidates);
  const byPage = new Map<number, RankedPage>();
  // A page found by keyword shows its keyword chunks; one found only by meaning shows its closest chunk.
  for (const r of [...top, ...keyword]) byPage.set(r.page, r);
  const fused = reciprocalRankFusion([keyword.map((r) => r.page), top.map((r) => r.page)], fusion.k, [fusion.keywordWeight, fusion.denseWeight]);
  return [...fused]
    .map(([page, score]) => ({ ...byPage.get(page)!, score }))
    .sort((a, b) => b.score - a.score);
}

function hitOf(c: StoredChunk, score: number, retrieval: RetrievalMode): SearchHit {
  return {
    content: c.content,
    path: c.path,
    metadata: {
      title: c.title,
      anchor: c.anchor,
      breadcrumb: c.breadcrumb,
      score: Math.round(score * 1e4) / 1e4,
      retrieval,
      ...(c.version ? { version: c.version } : {}),
      ...(c.language ? { language: c.language } : {}),
    },
  };
}
