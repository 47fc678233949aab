import assert from 'node:assert/strict';
import path from 'node:path';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import { QdrantDocIndex } from '../../../core/retrieval/qdrant-store.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { testConfig, testPlatform } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const EXAMPLE_DOCS = path.resolve(__dirname, '..', '..', '..', 'infra', 'example-docs');

// No Qdrant server can run here: these tests drive the real @qdrant/js-client-rest
// against test/fakes/qdrant-server.ts, which speaks Qdrant's REST protocol, and
// assert on the exact requests the adapter sends.
describe('Qdrant store (against the fake Qdrant server)', () => {
  it('creates one collection with an IDF sparse vector and tenant payload index, upserts, searches with filters', async () => {
    const qdrant = await startFakeQdrant({ apiKey: 'qd-secret' });
    onSuiteEnd(qdrant.close);
    const config = await testConfig({ QDRANT_URL: qdrant.url, QDRANT_API_KEY: 'qd-secret', QDRANT_COLLECTION: 'docs' });
    const ix = (await testPlatform(config)).docIndex;
    assert.ok(ix instanceof QdrantDocIndex);

    const first = await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
    assert.equal(first.added, 20);
    assert.ok(qdrant.requests.every((r) => r.apiKey === 'qd-secret'));
    const create = qdrant.requests.find((r) => r.method === 'PUT' && r.path === '/collections/docs');
    assert.deepEqual(create?.body, { sparse_vectors: { text: { modifier: 'idf' } } });
    const indexes = qdrant.requests.filter((r) => r.path === '/collections/docs/index').map((r) => r.body);
    assert.deepEqual(indexes[0], { field_name: 'domain', field_schema: { type: 'keyword', is_tenant: true } });
    assert.ok(['version', 'language', 'groups'].every((f) => indexes.some((b) => JSON.stringify(b) === JSON.stringify({ field_name: f, field_schema: 'keyword' }))));
    const upsert = qdrant.requests.find((r) => r.method === 'PUT' && r.path === '/collections/docs/points');
    assert.equal(upsert?.query.wait, 'true');
    const body = upsert?.body as { points: Array<{ vector: { text?: { indices: number[]; values: number[] } }; payload: { kind: string; domain: string } }> };
    const chunkPoint = body.points.find((p) => p.payload.kind === 'chunk');
    assert.equal(chunkPoint?.payload.domain, 'skylark');
    assert.ok(chunkPoint?.vector.text && chunkPoint.vector.text.indices.length === chunkPoint.vector.text.values.length);

    qdrant.requests.length = 0;
    const hits = await ix.search('skylark', { query: 'verify webhook signatures', pageSize: 3, filter: { version: 'v2' } });
    assert.equal(hits[0]?.path, '/guides/webhooks');
    assert.equal(hits[0]?.metadata.anchor, 'verify-signatures');
    assert.equal(hits[0]?.metadata.score, 1);
    const query = qdrant.requests.find((r) => r.path === '/collections/docs/points/query/groups')?.body as Record<string, unknown>;
    assert.equal(query.using, 'text');
    assert.deepEqual([query.group_by, query.group_size, query.limit], ['path', 1, 3]);
    assert.deepEqual((query.filter as { must: unknown[] }).must.slice(0, 3), [
      { key: 'domain', match: { value: 'skylark' } },
      { key: 'kind', match: { value: 'chunk' } },
      { should: [{ is_empty: { key: 'version' } }, { key: 'version', match: { value: 'v2' } }] },
    ]);
    // A language tag is matched in its canonical case, the case pages are stored in.
    qdrant.requests.length = 0;
    await ix.search('skylark', { query: 'quickstart', pageSize: 3, filter: { language: 'pt_br' } });
    const byLanguage = qdrant.requests.find((r) => r.path === '/collections/docs/points/query/groups')?.body as { filter: { must: unknown[] } };
    assert.deepEqual(byLanguage.filter.must[2], { should: [{ is_empty: { key: 'language' } }, { key: 'language', match: { value: 'pt-BR' } }] });
    const v1 = await ix.search('skylark', { query: 'quickstart', pageSize: 10, filter: { version: 'v1' } });
    assert.ok(v1.every((h) => h.metadata.version !== 'v2'));
    assert.equal((await ix.search('skylark', { query: 'Okta', pageSize: 5 })).length, 0, 'group-restricted without groups');
    assert.equal((await ix.search('skylark', { query: 'Okta', pageSize: 5, filter: { groups: ['enterprise'] } }))[0]?.path, '/enterprise/sso');

    assert.match((await ix.getPage('skylark', '/concepts/retries'))?.content ?? '', /exponential backoff/);
    assert.equal(await ix.getPage('skylark', '/enterprise/sso'), undefined);
    assert.equal(await ix.getPage('other', '/concepts/retries'), undefined);
  });

  it('re-indexes incrementally: unchanged pages send no upsert; removals delete by domain and path', async () => {
    const qdrant = await startFakeQdrant();
    onSuiteEnd(qdrant.close);
    const ix = new QdrantDocIndex({ url: qdrant.url, apiKey: undefined, collection: 'c' });
    await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
    qdrant.requests.length = 0;
    const again = await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
    assert.equal(again.unchanged, 20);
    assert.ok(!qdrant.requests.some((r) => r.path.endsWith('/points') || r.path.endsWith('/points/delete')));
    await ix.applyChanges('skylark', { upserts: [], removals: ['/quickstart'] });
    const del = qdrant.requests.find((r) => r.path === '/collections/c/points/delete');
    assert.deepEqual(del?.body, { filter: { must: [{ key: 'domain', match: { value: 'skylark' } }, { key: 'path', match: { any: ['/quickstart'] } }] } });
    assert.equal(await ix.getPage('skylark', '/quickstart'), undefined);
  });

  it('writes a page record, whose hash says the page is indexed, only after all its chunks: a failed upsert leaves no page that a later run would skip', async () => {
    const qdrant = await startFakeQdrant({ failUpsert: (n) => n === 2 });
    onSuiteEnd(qdrant.close);
    const ix = new QdrantDocIndex({ url: qdrant.url, apiKey: undefined, collection: 'c' });
    // Ten pages of thirty chunks: more points than one upsert carries.
    const pages = Array.from({ length: 10 }, (_, p) => ({
      path: `/page-${p}`,
      title: `Page ${p}`,
      hash: `hash-${p}`,
      content: `Page ${p}`,
      groups: [],
      chunks: Array.from({ length: 30 }, (_, c) => ({ path: `/page-${p}`, anchor: `part-${c}`, title: `Page ${p}`, breadcrumb: [], content: `part ${c} of page ${p}`, headings: '', groups: [] })),
    }));
    await assert.rejects(ix.applyChanges('docs', { upserts: pages, removals: [] }));
    assert.deepEqual([...(await ix.pageHashes('docs')).keys()], [], 'no page counts as indexed');
    await ix.applyChanges('docs', { upserts: pages, removals: [] });
    assert.equal((await ix.pageHashes('docs')).size, 10);
    const chunks = [...(qdrant.collections.get('c')?.points.values() ?? [])].filter((p) => p.payload.kind === 'chunk');
    assert.equal(chunks.length, 300);
  });

  it('a collection deleted while the worker runs is made again by the next index, which writes every page', async () => {
    const qdrant = await startFakeQdrant();
    onSuiteEnd(qdrant.close);
    const ix = new QdrantDocIndex({ url: qdrant.url, apiKey: undefined, collection: 'c' });
    await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
    qdrant.collections.clear();
    const again = await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
    assert.deepEqual([again.added, again.unchanged, again.pages], [20, 0, 20]);
    assert.equal((await ix.search('skylark', { query: 'verify webhook signatures', pageSize: 3 }))[0]?.path, '/guides/webhooks');
  });

  it('keeps an edited page searchable in its old words when Qdrant fails to take the new ones, and drops its old sections once it does', async () => {
    // Qdrant fails to take the edit's chunks, then (once they are in) its page record.
    let refuse: 'chunks' | 'record' | undefined;
    const refused = (point: { payload?: { kind?: string; hash?: string; content?: string } }) =>
      refuse === 'chunks' ? point.payload?.content?.includes('monthly') === true : refuse === 'record' && point.payload?.kind === 'page' && point.payload.hash === 'new';
    const qdrant = await startFakeQdrant({ failUpsert: (_n, points) => (points as Array<Parameters<typeof refused>[0]>).some(refused) });
    onSuiteEnd(qdrant.close);
    const ix = new QdrantDocIndex({ url: qdrant.url, apiKey: undefined, collection: 'c' });
    const chunk = (path: string, anchor: string, content: string) => ({ path, anchor, title: 'Guide', breadcrumb: ['Guide'], content, headings: '', groups: [] });
    const page = (path: string, hash: string, chunks: ReturnType<typeof chunk>[]) => ({ path, title: 'Guide', hash, content: '', groups: [], chunks });
    await ix.applyChanges('docs', {
      upserts: [page('/guide', 'old', [chunk('/guide', '', 'Rotate the signing key yearly.'), chunk('/guide', 'legacy', 'The legacy endpoint answers XML.')])],
      removals: [],
    });

    const edited = page('/guide', 'new', [chunk('/guide', '', 'Rotate the signing key monthly.')]);
    refuse = 'chunks';
    await assert.rejects(ix.applyChanges('docs', { upserts: [edited], removals: [] }));
    const during = await ix.search('docs', { query: 'signing key', pageSize: 5 });
    assert.match(during[0]?.content ?? '', /yearly/, 'the page is still found');
    refuse = 'record';
    await assert.rejects(ix.applyChanges('docs', { upserts: [edited], removals: [] }));
    assert.equal((await ix.pageHashes('docs')).get('/guide'), 'old', 'the next run writes it again');

    refuse = undefined;
    // That run's batch holds another page first: the edit's chunks are the same points, not written twice.
    await ix.applyChanges('docs', { upserts: [page('/other', 'other', [chunk('/other', '', 'Unrelated.')]), edited], removals: [] });
    const after = await ix.search('docs', { query: 'signing key', pageSize: 5, chunksPerPage: 3 });
    assert.deepEqual(after.map((h) => h.content), ['Rotate the signing key monthly.']);
    assert.deepEqual(await ix.search('docs', { query: 'legacy XML', pageSize: 5 }), [], 'a section the edit removed is gone');
    assert.equal((await ix.pageHashes('docs')).get('/guide'), 'new');
  });

  it('adds a dense vector and fuses both by RRF when an embedding model is configured', async () => {
    const qdrant = await startFakeQdrant();
    onSuiteEnd(qdrant.close);
    const model = await startFakeModel([], { embeddingDims: 16 });
    onSuiteEnd(model.close);
    const config = await testConfig({
      QDRANT_URL: qdrant.url,
      QUIRE_MODEL: 'm',
      QUIRE_MODEL_BASE_URL: model.baseUrl,
      QUIRE_MODEL_API_KEY: 'sk-test',
      QUIRE_EMBEDDING_MODEL: 'embed-small',
    });
    const { docIndex: ix, embeddings } = await testPlatform(config);
    assert.ok(embeddings.configured);
    await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false, embedding: embeddings.chunks });
    const create = qdrant.requests.find((r) => r.method === 'PUT' && r.path === '/collections/quire_chunks');
    assert.deepEqual(create?.body, { vectors: { dense: { size: 16, distance: 'Cosine' } }, sparse_vectors: { text: { modifier: 'idf' } } });
    const upserted = qdrant.requests
      .filter((r) => r.method === 'PUT' && r.path === '/collections/quire_chunks/points')
      .flatMap((r) => (r.body as { points: Array<{ vector: { dense?: number[] }; payload: { kind: string; vector?: unknown } }> }).points)
      .filter((p) => p.payload.kind === 'chunk');
    const vectored = upserted.filter((p) => p.vector.dense);
    assert.ok(vectored.length > 0 && vectored.every((p) => p.vector.dense?.length === 16), 'page vectors go with the first chunks');
    assert.ok(upserted.every((p) => p.payload.vector === undefined), 'never in the payload');
    const hits = await ix.search('skylark', { query: 'dead-letter queue replay', pageSize: 3 });
    // The fake model's vectors are hashed words, not meaning: the keyword side must still bring the page into the fused top 3.
    assert.ok(hits.some((h) => h.path === '/concepts/retries'), hits.map((h) => h.path).join(', '));
    assert.equal(hits[0]?.metadata.retrieval, 'hybrid');
    const query = qdrant.requests.filter((r) => r.path.endsWith('/points/query/groups')).pop()?.body as { query: unknown; prefetch: Array<{ using: string }> };
    assert.deepEqual(query.query, { fusion: 'rrf' });
    assert.deepEqual(query.prefetch.map((p) => p.using), ['text', 'dense']);
  });
});
