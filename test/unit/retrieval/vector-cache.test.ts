import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadSnapshot } from '../../../core/retrieval/snapshot-file.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/embedded-store.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import { PermanentModelError } from '../../../core/model/index.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { tempDir, testConfig, chunkEmbeddingOf } from '../../support/services.js';

async function docsFolder(pages: number): Promise<string> {
  const dir = await tempDir();
  for (let i = 0; i < pages; i++) {
    await fs.writeFile(path.join(dir, `page-${i}.md`), `---\ntitle: Page ${i}\n---\n\n## Alpha\n\nAlpha text of page ${i}.\n\n## Beta\n\nBeta text of page ${i}.\n`);
  }
  return dir;
}

/** A worker's configuration over one data directory, with the given embedding settings. */
function workerConfig(dataDir: string, model: FakeModelServer, env: Record<string, string>) {
  return testConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test', QUIRE_MODEL: 'chat', QUIRE_EMBEDDING_BATCH_SIZE: '4', ...env });
}

const embeddingRequests = (model: FakeModelServer) => model.requests.filter((r) => r.path.endsWith('/embeddings'));

// The fake model server stands in for an OpenAI-compatible embeddings provider (OpenAI, vLLM, Ollama).
describe('embedding through the vector cache', () => {
  it('asks in bounded batches, embeds a re-index only where pages changed, and re-embeds all when the model changes', async () => {
    const model = await startFakeModel([], { embeddingDims: 8 });
    const dataDir = await tempDir();
    const docs = await docsFolder(3);
    const index = new EmbeddedDocIndex(path.join(dataDir, 'index'));
    const indexFile = path.join(dataDir, 'index', 'acme.json');

    // Keyword only first: no vectors, no requests.
    await indexDocs(index, 'acme', docs, { includeHidden: false });
    assert.equal(embeddingRequests(model).length, 0);

    // Setting a model on the keyword-indexed domain rewrites every page with vectors.
    const small = await chunkEmbeddingOf(await workerConfig(dataDir, model, { QUIRE_EMBEDDING_MODEL: 'small' }));
    const hybrid = await indexDocs(index, 'acme', docs, { includeHidden: false, embedding: small });
    assert.deepEqual([hybrid.updated, hybrid.unchanged], [3, 0]);
    const chunks = (await loadSnapshot(indexFile)).snapshot.chunks;
    const withVectors = chunks.filter((c) => c.vector);
    assert.ok(chunks.length >= 6 && withVectors.length === 3 && withVectors.every((c) => c.vector?.length === 8), 'one vector per page, on its first chunk');
    assert.ok(embeddingRequests(model).every((r) => Array.isArray(r.body.input) && r.body.input.length <= 4), 'batches of at most 4');
    assert.equal(model.embeddedTexts.length, 3, 'each page embedded once');
    assert.equal(new Set(model.embeddedTexts).size, 3);

    // Nothing changed: nothing is asked.
    model.embeddedTexts.length = 0;
    const again = await indexDocs(index, 'acme', docs, { includeHidden: false, embedding: small });
    assert.equal(again.unchanged, 3);
    assert.equal(model.embeddedTexts.length, 0);

    // One section edited: only that page is embedded again; the others keep their vectors.
    await fs.writeFile(path.join(docs, 'page-1.md'), '---\ntitle: Page 1\n---\n\n## Alpha\n\nAlpha text of page 1.\n\n## Beta\n\nBeta, rewritten.\n');
    const edited = await indexDocs(index, 'acme', docs, { includeHidden: false, embedding: small });
    assert.deepEqual([edited.updated, edited.unchanged], [1, 2]);
    assert.equal(model.embeddedTexts.length, 1);
    assert.match(model.embeddedTexts[0]!, /Beta, rewritten/);
    assert.equal(edited.cachedVectors, edited.vectors - 1);

    // Another model (or another size) re-embeds everything, through the same cache file.
    model.embeddedTexts.length = 0;
    const large = await chunkEmbeddingOf(await workerConfig(dataDir, model, { QUIRE_EMBEDDING_MODEL: 'large', QUIRE_EMBEDDING_DIMENSIONS: '12' }));
    const changed = await indexDocs(index, 'acme', docs, { includeHidden: false, embedding: large });
    assert.deepEqual([changed.updated, changed.cachedVectors], [3, 0]);
    assert.equal(model.embeddedTexts.length, changed.vectors);
    assert.equal(changed.vectors, 3);
    assert.equal(embeddingRequests(model).pop()?.body.model, 'large');
    assert.ok((await loadSnapshot(indexFile)).snapshot.chunks.every((c) => c.vector === undefined || c.vector.length === 12));

    // Back to keyword only: the vectors leave the index.
    const keyword = await indexDocs(index, 'acme', docs, { includeHidden: false });
    assert.equal(keyword.updated, 3);
    assert.ok((await loadSnapshot(indexFile)).snapshot.chunks.every((c) => c.vector === undefined));
  });

  it('keeps the batches a failed run finished: the next run asks only for the rest', async () => {
    const model = await startFakeModel([], { embeddingDims: 8 });
    const dataDir = await tempDir();
    // Eight pages: two requests of four page vectors.
    const docs = await docsFolder(8);
    const index = new EmbeddedDocIndex(path.join(dataDir, 'index'));
    const embedding = await chunkEmbeddingOf(await workerConfig(dataDir, model, { QUIRE_EMBEDDING_MODEL: 'small' }));
    model.failEmbeddingRequest = (n) => (n === 1 ? { status: 400, message: 'input too long' } : undefined);

    await assert.rejects(indexDocs(index, 'acme', docs, { includeHidden: false, embedding }), PermanentModelError);
    assert.equal(model.embeddedTexts.length, 4, 'the first batch was answered');
    assert.equal((await index.pageHashes('acme')).size, 0, 'nothing was written');

    const progress: Array<[number, number]> = [];
    const done = await indexDocs(index, 'acme', docs, { includeHidden: false, embedding, onEmbedded: (ready, total) => progress.push([ready, total]) });
    assert.equal(done.cachedVectors, 4);
    assert.equal(done.vectors, 8);
    assert.equal(model.embeddedTexts.length, 8, 'every page embedded exactly once over both runs');
    assert.equal(new Set(model.embeddedTexts).size, 8);
    assert.deepEqual(progress[0], [4, 8], 'progress starts at what the cache had');
    assert.deepEqual(progress.at(-1), [8, 8]);
  });
});
