/**
 * The local embedder as `npm start` runs it: the server `infra/setup.sh`
 * installed into .tools/embedder, started by infra/embedder.ts, indexing a
 * small site whose pages share no word with a reader's paraphrase; and the
 * fallback to keyword ranking when the embedder is down or slow (the slow one
 * is the fake OpenAI-compatible model server, delaying its answers).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../../core/config.js';
import { EmbeddedDocIndex, indexDocs, QueryEmbedder } from '../../../core/retrieval/index.js';
import { localEmbedderFiles, startLocalEmbedder, type LocalEmbedder } from '../../../infra/embedder.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { freePort } from '../../support/redis.js';
import { tempDir, chunkEmbeddingOf } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Six pages; the deployments page is the one a reader asking to "force a rebuild" wants, in other words. */
const SITE: Record<string, string> = {
  'deployments.mdx': '---\ntitle: Deployments\ndescription: Publishing your documentation after changes.\n---\n\nEvery push to the main branch publishes the docs. To publish again without a new commit, press Redeploy on the dashboard; the previous version stays online until the new one is ready.\n',
  'search-analytics.mdx': '---\ntitle: Search analytics\ndescription: What readers look for.\n---\n\nThe analytics tab lists the queries readers typed, how often each came back empty, and which results they clicked.\n',
  'custom-domain.mdx': '---\ntitle: Custom domain\ndescription: Serve the docs from your own hostname.\n---\n\nAdd a CNAME record pointing at our edge, then enter the hostname in settings. Certificates are issued automatically.\n',
  'api-keys.mdx': '---\ntitle: API keys\ndescription: Authenticate requests to the admin API.\n---\n\nCreate a key in settings and send it as a bearer token. Keys can be revoked at any time.\n',
  'themes.mdx': '---\ntitle: Themes\ndescription: Colours, fonts and logos.\n---\n\nPick a primary colour, upload a logo and choose a font family for headings and body text.\n',
  'webhooks.mdx': '---\ntitle: Webhooks\ndescription: Get notified of events.\n---\n\nRegister an HTTPS endpoint; each event is posted as JSON with a signature header you verify with your secret.\n',
};
const PARAPHRASE = 'how can I force a rebuild';

async function site(): Promise<string> {
  const dir = await tempDir('quire-local-embedder-');
  for (const [file, text] of Object.entries(SITE)) await fs.writeFile(path.join(dir, file), text);
  return dir;
}

/** The configuration of `QUIRE_EMBEDDER=local` on the embedder's port. */
async function localConfig(port: number) {
  return loadConfig({ QUIRE_DATA_DIR: await tempDir(), LOG_LEVEL: 'silent', QUIRE_EMBEDDER: 'local', QUIRE_EMBEDDER_PORT: String(port) });
}

describe('the local embedder (installed by infra/setup.sh, started by infra/embedder.ts)', function () {
  this.timeout(240_000);
  let embedder: LocalEmbedder;
  let port: number;

  before(async () => {
    port = await freePort();
    const logFile = path.join(await tempDir(), 'embedder.log');
    embedder = await startLocalEmbedder({ ...localEmbedderFiles(REPO_ROOT), port, logFile });
    onSuiteEnd(() => embedder.stop());
  });

  it('indexes a site with page vectors and finds a paraphrase keyword retrieval misses; a re-index embeds only the edited page', async () => {
    const config = await localConfig(port);
    assert.equal(config.embedding?.marking, 'input_type', 'the local server adds e5 prefixes from input_type');
    assert.equal(config.embedding?.base64Vectors, true, 'vectors travel as base64 float32');
    const docs = await site();
    const dir = path.join(config.dataDir, 'index');
    const embedding = await chunkEmbeddingOf(config);
    assert.ok(embedding, 'an embedder is configured');
    const first = await indexDocs(new EmbeddedDocIndex(dir), 'docs', docs, { includeHidden: false, embedding });
    assert.equal(first.vectors, 6, 'one vector per page');

    const keyword = await new EmbeddedDocIndex(dir).search('docs', { query: PARAPHRASE, pageSize: 3 });
    assert.ok(!keyword.some((h) => h.path === '/deployments'), `keyword alone misses it: ${keyword.map((h) => h.path).join(', ')}`);
    const hybrid = await new EmbeddedDocIndex(dir, new QueryEmbedder(embedding.embedder, 60_000)).search('docs', { query: PARAPHRASE, pageSize: 3 });
    assert.equal(hybrid[0]?.path, '/deployments', `hybrid finds it first: ${hybrid.map((h) => h.path).join(', ')}`);
    assert.equal(hybrid[0]?.metadata.retrieval, 'hybrid');

    await fs.appendFile(path.join(docs, 'themes.mdx'), '\nDark mode follows the reader’s system setting.\n');
    const again = await indexDocs(new EmbeddedDocIndex(dir), 'docs', docs, { includeHidden: false, embedding });
    assert.equal(again.updated, 1);
    assert.equal(again.vectors, 1);
    assert.equal(again.cachedVectors, 0, 'the edited page is embedded again, the others untouched');
  });

  it('embeds a batch text by text, in order, with the vectors each text gets alone; concurrent requests too; bad input is a 400', async () => {
    const url = `${embedder.baseUrl}/embeddings`;
    const embed = async (body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as { data: Array<{ index: number; embedding: number[] }>; usage: { total_tokens: number } } };
    };
    const texts = Object.values(SITE);
    const batch = await embed({ input: texts, input_type: 'document' });
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.json.data.map((d) => d.index), texts.map((_, i) => i));
    assert.ok(batch.json.usage.total_tokens > texts.length);
    const alone = await Promise.all(texts.map((t) => embed({ input: t, input_type: 'document' })));
    alone.forEach((one, i) => assert.deepEqual(one.json.data[0]!.embedding, batch.json.data[i]!.embedding, `text ${i}`));
    const encoded = (await embed({ input: texts[0], input_type: 'document', encoding_format: 'base64' })).json.data[0]!.embedding as unknown as string;
    const decoded = Buffer.from(encoded, 'base64');
    assert.deepEqual([...new Float32Array(decoded.buffer, decoded.byteOffset, decoded.length / 4)], batch.json.data[0]!.embedding, 'base64 float32 carries the same vector');
    const query = await embed({ input: [texts[0]], input_type: 'query' });
    assert.notDeepEqual(query.json.data[0]!.embedding, batch.json.data[0]!.embedding, 'a query is marked as one');
    assert.equal((await embed({ input: [] })).status, 400);
    assert.equal((await embed({ input: [3] })).status, 400);
  });

  it('a lone query on an idle server runs on two threads, one arriving while passages are embedded on one; its vector is the same either way', async () => {
    const files = localEmbedderFiles(REPO_ROOT);
    const logFile = path.join(await tempDir(), 'embedder.log');
    // The machine running the tests is rarely idle: the server is told not to look at the other processes.
    const two = await startLocalEmbedder({ ...files, port: await freePort(), logFile, queryThreads: 2, ignoreMachineLoad: true });
    onSuiteEnd(() => two.stop());
    const one = await startLocalEmbedder({ ...files, port: await freePort(), logFile, queryThreads: 1 });
    onSuiteEnd(() => one.stop());
    const embed = async (server: LocalEmbedder, input: string | string[], inputType: string) => {
      const res = await fetch(`${server.baseUrl}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input, input_type: inputType }) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { data: Array<{ embedding: number[] }> }).data.map((d) => d.embedding);
    };
    const health = async (server: LocalEmbedder) => {
      const res = await fetch(server.baseUrl.replace(/\/v1$/, '/health'));
      return (await res.json()) as { in_flight: number; inferences_by_threads: Record<string, number> };
    };
    const byThreads = async (server: LocalEmbedder) => {
      const { inferences_by_threads: counts } = await health(server);
      return { one: counts['1'] ?? 0, two: counts['2'] ?? 0 };
    };

    const start = await byThreads(two);
    const [idle] = await embed(two, PARAPHRASE, 'query');
    const afterIdle = await byThreads(two);
    assert.deepEqual(afterIdle, { one: start.one, two: start.two + 1 }, 'a lone query on an idle server ran on two threads');
    const [single] = await embed(one, PARAPHRASE, 'query');
    assert.deepEqual(single, idle, 'one thread and two give the same vector');

    // Long passages (each cut at the token budget), so the batch is still running when the query arrives.
    const passages = Object.values(SITE).flatMap((text) => [text.repeat(6), text.repeat(7)]);
    const batch = embed(two, passages, 'document');
    while ((await health(two)).in_flight === 0) await new Promise((r) => setTimeout(r, 5));
    const [busy] = await embed(two, PARAPHRASE, 'query');
    const vectors = await batch;
    assert.deepEqual(busy, idle, 'a query on a busy server gets the vector it gets alone');
    assert.deepEqual(await byThreads(two), { one: afterIdle.one + passages.length + 1, two: afterIdle.two }, 'the passages and the query beside them ran on one thread each');
    assert.deepEqual(await embed(one, passages.slice(0, 2), 'document'), vectors.slice(0, 2), 'passages after a two-thread query are unchanged');
  });

  it('a search while the embedder is down answers from keyword ranking and says so', async () => {
    const closed = await freePort();
    const config = await localConfig(closed);
    const docs = await site();
    const dir = path.join(config.dataDir, 'index');
    await indexDocs(new EmbeddedDocIndex(dir), 'docs', docs, { includeHidden: false });
    const index = new EmbeddedDocIndex(dir, new QueryEmbedder((await chunkEmbeddingOf(config))?.embedder, 5_000));
    const hits = await index.search('docs', { query: 'revoke a key', pageSize: 3 });
    assert.equal(hits[0]?.path, '/api-keys');
    assert.equal(hits[0]?.metadata.retrieval, 'keyword-fallback');
  });
});

describe('a slow embedder (the fake OpenAI-compatible server, delaying each answer)', function () {
  this.timeout(60_000);

  it('a search gives up on the query vector within its budget, ranks by keyword, and the next searches do not wait for it again', async () => {
    const model = await startFakeModel([], { embeddingDims: 16 });
    onSuiteEnd(model.close);
    const config = loadConfig({
      QUIRE_DATA_DIR: await tempDir(),
      LOG_LEVEL: 'silent',
      QUIRE_EMBEDDING_BASE_URL: model.baseUrl,
      QUIRE_EMBEDDING_MODEL: 'e5-small',
      QUIRE_EMBEDDING_QUERY_TIMEOUT_MS: '200',
    });
    assert.equal(config.model, undefined, 'no chat model is needed for embeddings');
    assert.equal(config.embedding?.marking, 'prefix', 'an e5 model behind a generic server gets query:/passage: prefixes');
    const docs = await site();
    const dir = path.join(config.dataDir, 'index');
    const embedding = await chunkEmbeddingOf(config);
    await indexDocs(new EmbeddedDocIndex(dir), 'docs', docs, { includeHidden: false, embedding });
    assert.ok(model.embeddedTexts.every((t) => t.startsWith('passage: ')), 'pages are marked as passages');
    const requestsBefore = model.requests.filter((r) => r.path.endsWith('/embeddings')).length;

    model.embeddingDelayMsPerInput = 20_000;
    const index = new EmbeddedDocIndex(dir, new QueryEmbedder(embedding?.embedder, config.embedding!.queryTimeoutMs));
    const hits = await index.search('docs', { query: 'verify the signature header', pageSize: 3 });
    assert.equal(hits[0]?.path, '/webhooks');
    assert.equal(hits[0]?.metadata.retrieval, 'keyword-fallback');
    const next = await index.search('docs', { query: 'upload a logo', pageSize: 3 });
    assert.equal(next[0]?.path, '/themes');
    assert.equal(next[0]?.metadata.retrieval, 'keyword-fallback');
    const queries = model.requests.filter((r) => r.path.endsWith('/embeddings')).slice(requestsBefore);
    assert.equal(queries.length, 1, 'the second search did not ask the slow embedder again');
    assert.match(String([queries[0]?.body.input].flat()[0]), /^query: /);
  });
});
