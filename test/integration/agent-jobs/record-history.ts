/**
 * Records the history of a real agent job's first run (create, a follow-up that
 * arrives during the turn and is handled by a second turn of the same run, a
 * duplicate message id) into test/fixtures/histories/agent-job.json for the
 * replay test; the job is then archived by a run of its own. Run after a
 * deliberate change to the workflow's shape:
 *   node --require tsx/cjs test/integration/agent-jobs/record-history.ts
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { createApp } from '../../../api/app.js';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import type { JobView } from '../../../core/jobs/index.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { REPO_ROOT, startWorker } from '../../support/temporal.js';
import { runScript } from '../../support/teardown.js';
import { call, pollJob } from './agent-api.js';

export const HISTORY_FILE = path.join(REPO_ROOT, 'test', 'fixtures', 'histories', 'agent-job.json');

async function record(): Promise<void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let turnStarted!: () => void;
  const started = new Promise<void>((r) => (turnStarted = r));
  const model = await startFakeModel(async (_req, index) => {
    if (index === 0) {
      // The first turn is running: the follow-up sent now is one for a second turn, not part of the first.
      turnStarted();
      await gate;
    }
    const steps = [
      { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }] },
      { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget on page 1', summary: 'Renamed.' } }] },
      { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'Install the widget 2', new_text: 'Install the gadget 2' } }] },
      { toolCalls: [{ name: 'finish', arguments: { title: 'Gadget on page 2', summary: 'Renamed too.' } }] },
    ];
    return steps[index] ?? { text: 'done' };
  });
  const repo = await createDocsRepo({ pages: 3, withNav: true });
  const services = await testServices({
    taskQueue: 'record-history',
    env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' },
  });
  const { adminKey } = await seedOrg(services);
  await services.tenants.putProject({
    id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [],
  });
  await startWorker(services, { taskQueue: 'record-history' });
  const base = (await serve(createApp(services))).url;
  const job = (await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: 'Say gadget on page 1' })).body;
  const firstRun = (await services.temporal.workflow.getHandle(agentJobWorkflowId(job.id)).describe()).runId;
  await started;
  const message = { prompt: 'And on page 2' };
  await call(`${base}/v2/agent/docs/job/${job.id}/message`, 'POST', adminKey, message, { 'Idempotency-Key': 'follow-up-0001' });
  await call(`${base}/v2/agent/docs/job/${job.id}/message`, 'POST', adminKey, message, { 'Idempotency-Key': 'follow-up-0001' });
  release();
  await pollJob(base, adminKey, 'docs', job.id, (j) => j.status === 'completed');
  await call(`${base}/v2/agent/docs/job/${job.id}/archive`, 'POST', adminKey);
  await services.temporal.workflow.getHandle(agentJobWorkflowId(job.id)).result();
  const handle = services.temporal.workflow.getHandle(agentJobWorkflowId(job.id), firstRun);
  await fs.mkdir(path.dirname(HISTORY_FILE), { recursive: true });
  const history: unknown = JSON.parse(historyToJSON(await handle.fetchHistory()));
  await fs.writeFile(HISTORY_FILE, JSON.stringify(scrubPath(history, repo.bareDir, '/srv/docs.git'), null, 2) + '\n');
  console.log(`recorded ${agentJobWorkflowId(job.id)} into ${path.relative(REPO_ROOT, HISTORY_FILE)}`);
}

/**
 * The fixture names the repository by a neutral path, not this machine's temporary folder: every
 * payload (base64 JSON) that mentions `from` says `to` instead. Replay reads payloads as data only.
 */
function scrubPath(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((v) => scrubPath(v, from, to));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key !== 'data' || typeof v !== 'string') return [key, scrubPath(v, from, to)];
      const text = Buffer.from(v, 'base64').toString('utf8');
      return [key, text.includes(from) ? Buffer.from(text.split(from).join(to)).toString('base64') : v];
    }),
  );
}

if (require.main === module) {
  runScript(record);
}
