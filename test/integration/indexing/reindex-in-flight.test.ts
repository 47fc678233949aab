import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { createApp } from '../../../api/app.js';
import { searchRouter } from '../../../api/search/index.js';
import type { IndexDomainResult } from '../../../core/contracts/index.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { exampleDocsRepo } from './git-docs.js';

const execFileAsync = promisify(execFile);

/**
 * A docs team merges a change while the index run of the previous merge is under way, and asks
 * for a re-index: the run is joined (one run per domain), and the change must not be left out.
 * The fake embeddings server holds the run's first request, so the run has checked out the docs
 * and is still going when the change lands.
 */
describe('a re-index asked for while a run is under way', function () {
  this.timeout(120_000);

  it('indexes the commit pushed meanwhile before the joined run completes', async () => {
    const model = await startFakeModel([], { embeddingDims: 16 });
    onSuiteEnd(model.close);
    let embedding!: () => void;
    const runCheckedOut = new Promise<void>((resolve) => (embedding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    model.onEmbeddingRequest = (n) => {
      if (n !== 0) return undefined;
      embedding();
      return released;
    };
    const taskQueue = `index-${randomUUID()}`;
    const services = await testServices({
      taskQueue,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test', QUIRE_MODEL: 'chat', QUIRE_EMBEDDING_MODEL: 'minilm' },
    });
    const org = await seedOrg(services);
    const repo = await exampleDocsRepo();
    await services.tenants.putDomain({
      id: 'merges', orgId: org.orgId, source: repo.bareDir, branch: 'main', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false,
    });
    const api = await serve(createApp(services, [searchRouter]));
    const reindex = async () => {
      const res = await fetch(`${api.url}/v1/admin/domains/merges/index`, { method: 'POST', headers: { authorization: `Bearer ${org.adminKey}` } });
      assert.equal(res.status, 202);
      return ((await res.json()) as { runId: string }).runId;
    };
    const worker = await startWorker(services, { taskQueue });

    const first = await reindex();
    await runCheckedOut;
    await repo.commit({ 'guides/webhooks.mdx': '---\ntitle: Webhooks\n---\n\n## Signing\n\nDeliveries are signed by the zeppelin key.\n' }, 'sign with zeppelin');
    assert.equal(await reindex(), first, 'the run under way is joined');
    release();

    const { client } = await temporalEnv();
    const result = await client.workflow.getHandle<() => Promise<IndexDomainResult>>('index-merges').result();
    const tip = (await execFileAsync('git', ['rev-parse', 'refs/heads/main'], { cwd: repo.bareDir })).stdout.trim();
    assert.equal(result.commit, tip, 'the run ends at the commit pushed while it ran');
    const hits = await services.docIndex.search('merges', { query: 'zeppelin key', pageSize: 3 });
    assert.match(hits.find((h) => h.path === '/guides/webhooks')?.content ?? '', /zeppelin/, 'search finds the change');
    await worker.stop();
  });
});
