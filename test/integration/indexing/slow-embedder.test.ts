/**
 * Hybrid indexing with an embedder as slow as a CPU model (2 pages/s),
 * through the real indexing workflow on the Temporal dev server, with a
 * heartbeat timeout shorter than one embeddings request of the old code.
 * The fake model server stands in for an OpenAI-compatible embeddings
 * provider; every answered text is counted there.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { searchRouter } from '../../../api/search/index.js';
import { loadSnapshot } from '../../../core/retrieval/snapshot-file.js';
import type { IndexDomainResult } from '../../../core/contracts/index.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { seedOrg, serve, tempDir, testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';
import { runIndexCli } from './index-cli.js';

// One vector per page: three requests of four.
const PAGES = 12;
const BATCH = 4;

/** A small site: every page has two sections, so two chunks. */
async function smallSite(): Promise<string> {
  const dir = await tempDir('quire-slow-site-');
  for (let i = 0; i < PAGES; i++) {
    const text = `---\ntitle: Topic ${i}\n---\n\n## Setup\n\nHow to set up topic ${i}.\n\n## Limits\n\nWhat topic ${i} cannot do.\n`;
    await fs.writeFile(path.join(dir, `topic-${i}.md`), text);
  }
  return dir;
}

async function slowModel(): Promise<FakeModelServer> {
  const model = await startFakeModel([], { embeddingDims: 16 });
  model.embeddingDelayMsPerInput = 500;
  return model;
}

function settings(model: FakeModelServer): Record<string, string> {
  return {
    QUIRE_MODEL_BASE_URL: model.baseUrl,
    QUIRE_MODEL_API_KEY: 'sk-test',
    QUIRE_MODEL: 'chat',
    QUIRE_EMBEDDING_MODEL: 'minilm',
    // One request of the old code (every chunk at once, 6 s here) outlasts this.
    QUIRE_INDEX_HEARTBEAT_SECONDS: '3',
    QUIRE_EMBEDDING_BATCH_SIZE: String(BATCH),
  };
}

async function setUp(model: FakeModelServer) {
  const taskQueue = `slow-embed-${randomUUID()}`;
  const services = await testServices({ taskQueue, env: settings(model) });
  const org = await seedOrg(services);
  await services.tenants.putDomain({
    id: 'slow', orgId: org.orgId, source: await smallSite(), branch: 'main', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false,
  });
  return { taskQueue, services, org };
}

/** Every page was answered exactly once over all attempts: no finished batch was embedded again. */
function assertEachEmbeddedOnce(model: FakeModelServer, pages: number) {
  assert.equal(new Set(model.embeddedTexts).size, pages, 'every page embedded');
  assert.equal(model.embeddedTexts.length, pages, 'none embedded twice');
}

describe('hybrid indexing with a slow embedder (2 pages/s) on the real Temporal dev server', function () {
  this.timeout(180_000);

  it('completes, resumes after a failed batch without embedding finished batches again, and the CLI shows embedding progress', async () => {
    const model = await slowModel();
    // The second request fails as an overloaded provider would; Temporal retries the activity.
    model.failEmbeddingRequest = (n) => (n === 1 ? { status: 503, message: 'overloaded', type: 'server_error' } : undefined);
    const { taskQueue, services } = await setUp(model);
    const worker = await startWorker(services, { taskQueue });

    const { code, printed } = await runIndexCli(services, taskQueue, 'slow');
    assert.equal(code, 0, printed);
    const chunks = Number(/(\d+) chunks written/.exec(printed)?.[1]);
    assert.ok(chunks >= PAGES * 2, printed);
    assert.match(printed, new RegExp(`indexed slow: ${PAGES} pages, ${PAGES} added`));
    assert.match(printed, /\d+\/\d+ pages embedded/, 'progress shows pages embedded / total');
    assert.match(printed, new RegExp(`${PAGES} pages embedded, ${BATCH} of them from the vector cache`), 'the retry took the first batch from the cache');
    assertEachEmbeddedOnce(model, PAGES);

    // The failure went through Temporal's retry: the page activity ran twice.
    const { client } = await temporalEnv();
    const history = await client.workflow.getHandle('index-slow').fetchHistory();
    const attempts = (history.events ?? []).map((e) => e.activityTaskStartedEventAttributes?.attempt).filter((a) => a !== undefined && a !== null);
    assert.ok(attempts.includes(2), `attempts: ${attempts.join(',')}`);

    // Every page of the index has its vector, on its first chunk.
    const { snapshot } = await loadSnapshot(path.join(services.config.dataDir, 'index', 'slow.json'));
    assert.equal(snapshot.chunks.length, chunks);
    const firsts = snapshot.chunks.filter((c, i) => snapshot.chunks.findIndex((d) => d.path === c.path) === i);
    assert.equal(firsts.length, PAGES);
    assert.ok(firsts.every((c) => c.vector?.length === 16));
    assert.equal(snapshot.chunks.filter((c) => c.vector).length, PAGES, 'one vector per page');
    await worker.stop();
  });

  it('a worker killed mid-embedding: the next worker resumes without embedding finished batches again', async () => {
    const model = await slowModel();
    let thirdRequest!: () => void;
    const twoBatchesDone = new Promise<void>((r) => (thirdRequest = r));
    model.onEmbeddingRequest = (n) => {
      if (n === 2) thirdRequest();
    };
    const { taskQueue, services, org } = await setUp(model);
    const api = await serve(createApp(services, [searchRouter]));
    const workerEnv = {
      ...settings(model),
      TEMPORAL_ADDRESS: (await temporalEnv()).address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      QUIRE_DATA_DIR: services.config.dataDir,
    };

    const first = spawnWorker(workerEnv);
    const started = await fetch(`${api.url}/v1/admin/domains/slow/index`, { method: 'POST', headers: { authorization: `Bearer ${org.adminKey}` } });
    assert.equal(started.status, 202);
    const { runId } = (await started.json()) as { runId: string };
    await twoBatchesDone;
    first.child.kill('SIGKILL');
    await first.exited;
    assert.equal(model.embeddedTexts.length, 2 * BATCH, 'two batches were answered before the crash');

    const second = spawnWorker(workerEnv);
    const { client } = await temporalEnv();
    const result = await client.workflow
      .getHandle<() => Promise<IndexDomainResult>>('index-slow', runId)
      .result()
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\nworker output:\n${second.output()}`);
      });
    assert.equal(result.added, PAGES);
    assert.equal(result.vectors, PAGES);
    assert.equal(result.cachedVectors, 2 * BATCH, 'the finished batches came from the cache');
    assertEachEmbeddedOnce(model, PAGES);
  });
});
