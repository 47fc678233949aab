/**
 * The worker process dies (SIGKILL) in the middle of an agent turn; a new
 * worker process takes over and the job completes with exactly one pull
 * request. Runs the built worker entry point (`dist/worker/main.js` with its
 * prebuilt workflow bundle; `npm test` builds both), as production does.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import { PullStore } from '../../../core/forge/index.js';
import type { JobView } from '../../../core/jobs/index.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';
import { call, pollJob } from './agent-api.js';

describe('agent job survives a worker crash mid-turn', function () {
  this.timeout(180_000);

  it('the job completes with exactly one pull request after the worker is killed and restarted', async () => {
    let firstRequest!: () => void;
    const turnRunning = new Promise<void>((r) => (firstRequest = r));
    const model = await startFakeModel(async (_req, index) => {
      if (index === 0) {
        firstRequest();
        // This worker dies while waiting; the answer goes nowhere.
        await new Promise((r) => setTimeout(r, 5_000));
        return { text: 'lost' };
      }
      // Steps of the retried turn on the new worker.
      return index % 2 === 1
        ? { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the crash-proof widget 1' } }] }
        : { toolCalls: [{ name: 'finish', arguments: { title: 'Crash-proof', summary: 'Survived a worker crash.' } }] };
    });
    const repo = await createDocsRepo({ pages: 3, withNav: true });
    const taskQueue = `crash-${randomUUID()}`;
    const modelEnv = { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' };
    // The heartbeat timeout is how long the dead worker's turn waits before it is retried.
    const services = await testServices({ taskQueue, env: { ...modelEnv, QUIRE_AGENT_HEARTBEAT_SECONDS: '5' } });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({
      id: 'crashy',
      orgId: 'acme',
      repository: repo.bareDir,
      branch: repo.branch,
      docsPath: repo.docsPath,
      forge: 'local',
      allowedModels: [],
    });
    const base = (await serve(createApp(services))).url;
    const workerEnv = {
      ...modelEnv,
      TEMPORAL_ADDRESS: (await temporalEnv()).address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      QUIRE_DATA_DIR: services.config.dataDir,
      QUIRE_PUBLIC_URL: services.config.publicUrl,
    };

    const first = spawnWorker(workerEnv);
    const created = await call<JobView>(`${base}/v2/agent/crashy/job`, 'POST', adminKey, { prompt: 'Make page 1 crash-proof' });
    assert.equal(created.status, 201);
    await turnRunning;
    first.child.kill('SIGKILL');
    await first.exited;
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.equal((await call<JobView>(`${base}/v2/agent/crashy/job/${created.body.id}`, 'GET', adminKey)).body.status, 'active');

    const second = spawnWorker(workerEnv);
    const done = await pollJob(base, adminKey, 'crashy', created.body.id, (j) => j.status !== 'active', 120_000).catch((err: unknown) => {
      throw new Error(`${String(err)}\nworker output:\n${second.output()}`);
    });
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const pulls = new PullStore(services.database);
    const pull = await pulls.get('crashy', 1);
    assert.ok(pull, 'a pull request was opened');
    assert.equal(await pulls.get('crashy', 2), undefined, 'and only one');
    assert.ok(done.prLink && new URL(done.prLink).pathname.endsWith('/pulls/1'), done.prLink ?? 'no prLink');
    assert.match((await repo.readFile(`quire/${created.body.id}`, 'page-1.mdx')) ?? '', /crash-proof widget 1/);
    assert.equal(await repo.git(repo.bareDir, 'rev-list', '--count', `${repo.branch}..quire/${created.body.id}`), '1');
  });
});
