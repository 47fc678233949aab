import { createHash } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { Config } from '../config.js';
import { QueryEmbedder, type RetrievalMode } from './query-embedder.js';
import { inSpan, SpanKind } from '../telemetry/index.js';
import { canonicalFilter, visibleTo } from './filter.js';
import { normalisePagePath, type IndexedChunk, type PageChanges, type WritableDocIndex } from './indexed.js';
import { chunkTerms } from './keyword-index.js';
import { byPath, generationOf, listingOf } from './page-listing.js';
import { qdrantFilter } from './qdrant-filter.js';
import { queryTokens } from './query-terms.js';
import { termId } from './tokenise.js';
import type { PageContent, PageListing, SearchHit, SearchQuery, Vocabulary } from './types.js';

/** Names of the collection's vectors. */
export const SPARSE = 'text';
export const DENSE = 'dense';
/** Keyword fields the filters use; `domain` is the tenant key. */
const PAYLOAD_INDEXES = ['domain', 'kind', 'path', 'version', 'language', 'groups', 'tag'] as const;
const UPSERT_BATCH = 256;
const K1 = 1.2;

/** Deterministic point ids: re-indexing a page overwrites its points. */
function pointId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A sparse vector of hashed term ids; document weights saturate like BM25, Qdrant's IDF modifier supplies the rest. */
export function sparseVector(terms: Map<string, number>, saturate: boolean): { indices: number[]; values: number[] } {
  const merged = new Map<number, number>();
  for (const [term, tf] of terms) merged.set(termId(term), (merged.get(termId(term)) ?? 0) + tf);
  const indices = [...merged.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => (saturate ? (merged.get(i)! * (K1 + 1)) / (merged.get(i)! + K1) : merged.get(i)!)) };
}

/** Chunks each ranking contributes before fusion, as in the embedded store. */
const CANDIDATES = 50;
/** The reader's current page is a hint, not a verdict. */
const CURRENT_PAGE_BOOST = 1.15;

/** Qdrant answers 409 Conflict to creating a collection that exists. */
function alreadyExists(err: unknown): boolean {
  return err instanceof Error && 'status' in err && err.status === 409;
}

/** Qdrant answers 404 Not Found to a request on a collection that does not exist. */
function collectionMissing(err: unknown): boolean {
  return err instanceof Error && 'status' in err && err.status === 404;
}

/** A point as this store writes it: named vectors (sparse terms, the dense page vector) and its payload. */
interface QdrantPoint {
  id: string;
  vector: Record<string, number[] | { indices: number[]; values: number[] }>;
  payload: Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Qdrant behind the retrieval port: one collection, a named sparse vector
 * with the IDF modifier (our tokeniser's hashed terms) and, with an embedding
 * model, a named dense vector; queries fuse both by RRF on the server.
 */
export class QdrantDocIndex implements WritableDocIndex {
  private readonly client: QdrantClient;
  private ready: Promise<void> | undefined;

  constructor(private readonly settings: NonNullable<Config['qdrant']>, private readonly queries: QueryEmbedder = new QueryEmbedder(undefined, 0), private readonly dimensions?: number) {
    // The client checks the server's version once (GET /) and warns when their minor versions differ by more
    // than one: docker-compose.yml pins a Qdrant image of the client's minor version.
    this.client = new QdrantClient({ url: settings.url, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
  }

  private get collection(): string {
    return this.settings.collection;
  }

  /** Creates the collection and its payload indexes on first use. */
  private ensureCollection(): Promise<void> {
    this.ready ??= (async () => {
      const { exists } = await this.client.collectionExists(this.collection);
      if (exists) return;
      // Without a configured size, the model's own output length decides.
      const embedder = this.queries.configured;
      const size = embedder ? (this.dimensions ?? (await embedder.embed(['dimensions'], 'passage'))[0]?.length) : undefined;
      await this.client
        .createCollection(this.collection, {
          ...(size ? { vectors: { [DENSE]: { size, distance: 'Cosine' } } } : {}),
          sparse_vectors: { [SPARSE]: { modifier: 'idf' } },
        })
        .catch((err: unknown) => {
          // Another process (an API replica, the worker) created it between our check and our create: that is success.
          if (!alreadyExists(err)) throw err;
        });
      // Creating a payload index that exists is accepted, so whoever lost the race makes sure of them too.
      for (const field of PAYLOAD_INDEXES) {
        await this.client.createPayloadIndex(this.collection, {
          wait: true,
          field_name: field,
          field_schema: field === 'domain' ? { type: 'keyword', is_tenant: true } : 'keyword',
        });
      }
    })().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  /**
   * Pages, each by its best chunks: Qdrant groups the chunks by path, ranks
   * the groups by their best chunk and keeps `chunksPerPage` of each, so one
   * page never takes two places.
   */
  async search(domainId: string, query: SearchQuery): Promise<SearchHit[]> {
    await this.ensureCollection();
    const filter = qdrantFilter(domainId, 'chunk', canonicalFilter(query.filter));
    const sparse = sparseVector(new Map(queryTokens(query).map((t) => [t, 1])), false);
    if (sparse.indices.length === 0) return [];
    // The current page's boost may lift a page one place or two, so one more page is asked for than shown.
    const limit = query.pageSize + (query.currentPath ? 1 : 0);
    const grouping = { group_by: 'path', group_size: query.chunksPerPage ?? 1, limit, filter, with_payload: true };
    const { vector, mode } = await this.queries.vectorOf(query.query);
    const candidates = Math.max(CANDIDATES, limit * 4);
    const queryGroups = (request: Parameters<QdrantClient['queryGroups']>[1]) =>
      inSpan('qdrant query_groups', { 'db.system': 'qdrant', 'db.operation.name': 'query_groups', 'db.collection.name': this.collection }, () =>
        this.client.queryGroups(this.collection, request),
      SpanKind.CLIENT);
    const res = vector
      ? await queryGroups({
          ...grouping,
          prefetch: [
            { query: sparse, using: SPARSE, limit: candidates, filter },
            { query: vector, using: DENSE, limit: candidates, filter },
          ],
          query: { fusion: 'rrf' },
        })
      : await queryGroups({ ...grouping, query: sparse, using: SPARSE });
    // Qdrant's scores are unbounded; they are reported relative to the best page.
    const best = res.groups[0]?.hits[0]?.score ?? 1;
    const current = query.currentPath ? normalisePagePath(query.currentPath) : undefined;
    return res.groups
      .map((g) => ({ hits: g.hits, score: Math.min(1, ((g.hits[0]?.score ?? 0) / best) * (current && g.id === current ? CURRENT_PAGE_BOOST : 1)) }))
      .sort((a, b) => b.score - a.score)
      .filter(({ score }) => query.scoreThreshold === undefined || score >= query.scoreThreshold)
      .slice(0, query.pageSize)
      .flatMap(({ hits, score }) => hits.map((p) => hitOf(p.payload ?? {}, score, mode)));
  }

  /** None: Qdrant's sparse vectors answer searches, not look-ups of a word, so the extractive mode does not decline on a word's absence here. */
  async vocabulary(): Promise<Vocabulary | undefined> {
    return undefined;
  }

  async getPage(domainId: string, pagePath: string, groups?: string[]): Promise<PageContent | undefined> {
    await this.ensureCollection();
    const path = normalisePagePath(pagePath);
    const res = await this.client.scroll(this.collection, {
      filter: { must: [{ key: 'domain', match: { value: domainId } }, { key: 'kind', match: { value: 'page' } }, { key: 'path', match: { value: path } }] },
      limit: 1,
      with_payload: true,
    });
    const payload = res.points[0]?.payload;
    if (!payload || !visibleTo(strings(payload.groups), groups)) return undefined;
    const language = str(payload.language);
    return { path, title: str(payload.title) ?? '', content: str(payload.content) ?? '', ...(language ? { language } : {}) };
  }

  /** Every page point of the domain, with the payload fields asked for. */
  private async scrollPages(domainId: string, fields: string[]): Promise<Array<Record<string, unknown>>> {
    await this.ensureCollection();
    const payloads: Array<Record<string, unknown>> = [];
    let offset: string | number | undefined;
    do {
      const res = await this.client.scroll(this.collection, {
        filter: { must: [{ key: 'domain', match: { value: domainId } }, { key: 'kind', match: { value: 'page' } }] },
        limit: 1000,
        with_payload: fields,
        ...(offset !== undefined ? { offset } : {}),
      });
      for (const p of res.points) if (p.payload) payloads.push(p.payload);
      const next = res.next_page_offset;
      offset = typeof next === 'string' || typeof next === 'number' ? next : undefined;
    } while (offset !== undefined);
    return payloads;
  }

  async listPages(domainId: string, options: { content?: boolean } = {}): Promise<PageListing[]> {
    const fields = ['path', 'title', 'description', 'sections', 'groups', 'version', 'language', ...(options.content ? ['content'] : [])];
    const listings: PageListing[] = [];
    for (const payload of await this.scrollPages(domainId, fields)) {
      const path = str(payload.path);
      if (!path) continue;
      const page = {
        path,
        title: str(payload.title) ?? path,
        description: str(payload.description),
        sections: strings(payload.sections),
        groups: strings(payload.groups),
        version: str(payload.version),
        language: str(payload.language),
        content: str(payload.content),
      };
      listings.push(listingOf(page, options.content === true));
    }
    return listings.sort(byPath);
  }

  /** Derived from the page hashes, so every replica agrees without a counter to keep. */
  async generation(domainId: string): Promise<string> {
    return generationOf(await this.storedHashes(domainId));
  }

  pageHashes(domainId: string): Promise<Map<string, string>> {
    return this.remakingCollection(() => this.storedHashes(domainId));
  }

  applyChanges(domainId: string, changes: PageChanges): Promise<void> {
    return this.remakingCollection(() => this.writeChanges(domainId, changes));
  }

  /**
   * Runs an indexing call; when the collection is gone since this process made sure of it (deleted by
   * hand, Qdrant's storage reset), it is made again and the call run once more, so the next index run
   * rebuilds it. Searches never make it: they are refused (502) until an index run has.
   */
  private async remakingCollection<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!collectionMissing(err)) throw err;
      this.ready = undefined;
      return call();
    }
  }

  private async storedHashes(domainId: string): Promise<Map<string, string>> {
    const hashes = new Map<string, string>();
    for (const payload of await this.scrollPages(domainId, ['path', 'hash'])) {
      const path = str(payload.path);
      const hash = str(payload.hash);
      if (path && hash) hashes.set(path, hash);
    }
    return hashes;
  }

  private async writeChanges(domainId: string, changes: PageChanges): Promise<void> {
    await this.ensureCollection();
    const domain = { key: 'domain', match: { value: domainId } };
    if (changes.removals.length > 0) {
      await this.client.delete(this.collection, { wait: true, filter: { must: [domain, { key: 'path', match: { any: changes.removals } }] } });
    }
    if (changes.upserts.length === 0) return;
    // Vectors arrive with the chunks (indexing embeds them through the vector cache); this store only keeps them.
    // New chunks first, then the old chunks of those pages, then the page records: a page's record holds the hash
    // that tells the next run the page is indexed, so a write that fails part way leaves the page searchable in
    // its old words with its old hash (indexed again), never gone, nor a record over missing chunks (skipped for good).
    // Each chunk carries its page's hash, which is how its page's old chunks are told from the new; its id is its
    // place in its page, so writing a page again (a retried batch) overwrites the chunks an attempt left.
    const chunks = changes.upserts.flatMap((page) => page.chunks.map((chunk, i) => ({ chunk, i, hash: page.hash })));
    await this.upsertPoints(
      chunks.map(({ chunk: { vector, ...chunk }, i, hash }: { chunk: IndexedChunk; i: number; hash: string }) => ({
        id: pointId(domainId, chunk.path, 'chunk', String(i), chunk.anchor),
        vector: {
          [SPARSE]: sparseVector(chunkTerms(chunk), true),
          ...(vector ? { [DENSE]: vector } : {}),
        },
        payload: { ...chunk, hash, domain: domainId, kind: 'chunk' },
      })),
    );
    await this.client.delete(this.collection, {
      wait: true,
      filter: {
        must: [domain, { key: 'kind', match: { value: 'chunk' } }, { key: 'path', match: { any: changes.upserts.map((p) => p.path) } }],
        must_not: [{ key: 'hash', match: { any: changes.upserts.map((p) => p.hash) } }],
      },
    });
    await this.upsertPoints(
      changes.upserts.map(({ chunks: _c, ...page }) => ({
        id: pointId(domainId, page.path, 'page'),
        vector: {},
        payload: { ...page, domain: domainId, kind: 'page' },
      })),
    );
  }

  /** Deletes every point of the domain (chunks and pages); a collection that is not there holds none. */
  async dropDomain(domainId: string): Promise<void> {
    try {
      await this.client.delete(this.collection, { wait: true, filter: { must: [{ key: 'domain', match: { value: domainId } }] } });
    } catch (err) {
      if (!collectionMissing(err)) throw err;
    }
  }

  /** Nothing of a domain is kept in this process: every read asks Qdrant. */
  forgetDomain(): void {}

  private async upsertPoints(points: QdrantPoint[]): Promise<void> {
    for (let i = 0; i < points.length; i += UPSERT_BATCH) {
      await this.client.upsert(this.collection, { wait: true, points: points.slice(i, i + UPSERT_BATCH) });
    }
  }

  async ping(): Promise<void> {
    await this.client.collectionExists(this.collection);
  }

  async close(): Promise<void> {}
}

function hitOf(payload: Record<string, unknown>, score: number, retrieval: RetrievalMode): SearchHit {
  const version = str(payload.version);
  const language = str(payload.language);
  return {
    content: str(payload.content) ?? '',
    path: str(payload.path) ?? '/',
    metadata: {
      title: str(payload.title) ?? '',
      anchor: str(payload.anchor) ?? '',
      breadcrumb: strings(payload.breadcrumb),
      score: Math.round(score * 1e4) / 1e4,
      retrieval,
      ...(version ? { version } : {}),
      ...(language ? { language } : {}),
    },
  };
}
