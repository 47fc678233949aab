/**
 * Bounded history: prompts live in the job store, and only ids and short summaries cross the
 * workflow's boundaries. A job takes 60 follow-ups of 100,000 characters each (6 MB of prompts,
 * three times Temporal's 2 MB payload limit) through the real API, worker and activities; the
 * scripted Chat Completions server stands in for the model provider.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import type { JobView } from '../../../core/jobs/index.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { call, pollJob } from './agent-api.js';

const FOLLOW_UPS = 60;
const PROMPT_CHARS = 100_000;
const MAX_PAYLOAD_BYTES = 256 * 1024;

const promptOf = (i: number) => `Follow-up ${i}: add a line to the changelog. `.padEnd(PROMPT_CHARS, 'x');

/** Every payload (its `data` bytes) anywhere in a decoded history event. */
function payloadsIn(value: unknown, found: Uint8Array[] = []): Uint8Array[] {
  if (value instanceof Uint8Array || typeof value !== 'object' || value === null) return found;
  if ('metadata' in value && 'data' in value && value.data instanceof Uint8Array) found.push(value.data);
  for (const child of Object.values(value)) payloadsIn(child, found);
  return found;
}

/** The payloads of every run of a workflow, following continue-as-new from the first run. */
async function historyPayloads(client: Client, workflowId: string, firstRunId: string): Promise<Uint8Array[]> {
  const payloads: Uint8Array[] = [];
  for (let runId: string | undefined = firstRunId; runId; ) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    payloadsIn(history.events, payloads);
    runId = history.events?.find((e) => e.workflowExecutionContinuedAsNewEventAttributes)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return payloads;
}

describe('agent job history stays bounded', function () {
  this.timeout(180_000);

  it(`runs ${FOLLOW_UPS} follow-ups of ${PROMPT_CHARS} characters; no history payload exceeds 256 KB`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let firstTurnRuns!: () => void;
    const running = new Promise<void>((r) => (firstTurnRuns = r));
    // Each turn writes a page, then finishes; the first waits until every follow-up is in.
    const script = async (req: RecordedRequest, index: number): Promise<Reply> => {
      if (index === 0) {
        firstTurnRuns();
        await gate;
      }
      if (req.body.messages.at(-1)?.role === 'user') return { toolCalls: [{ name: 'write_file', arguments: { path: `turn-${index}.md`, content: `# Turn ${index}\n` } }] };
      return { toolCalls: [{ name: 'finish', arguments: { title: `Turn ${index}`, summary: 'Changelog.' } }] };
    };
    const model = await startFakeModel(script);
    const repo = await createDocsRepo({ pages: 3, withNav: true });
    const services = await testServices({
      taskQueue: `bounded-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' },
    });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const base = (await serve(createApp(services))).url;

    const created = await call<JobView>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: promptOf(0) });
    assert.equal(created.status, 201);
    const firstRunId = (await services.temporal.workflow.getHandle(agentJobWorkflowId(created.body.id)).describe()).runId;
    // Follow-ups sent before the first turn takes its messages would join it: send them while it runs.
    await running;
    for (let i = 1; i <= FOLLOW_UPS; i++) {
      const sent = await call<JobView>(`${base}/v2/agent/docs/job/${created.body.id}/message`, 'POST', adminKey, { prompt: promptOf(i) });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    }
    release();
    const done = await pollJob(base, adminKey, 'docs', created.body.id, (j) => j.status !== 'active', 150_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.ok(done.prLink);

    // The second turn handled all 60 follow-ups, and the model got each prompt whole from the store.
    const secondTurn = model.requests.find((r) => r.body.messages.filter((m) => m.role === 'user').length === FOLLOW_UPS);
    assert.ok(secondTurn, 'one turn carried every follow-up');
    const prompts = secondTurn.body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    assert.deepEqual(prompts, Array.from({ length: FOLLOW_UPS }, (_, i) => promptOf(i + 1)));

    const payloads = await historyPayloads(services.temporal, agentJobWorkflowId(created.body.id), firstRunId);
    assert.ok(payloads.length > 100, `the history holds the job's payloads (${payloads.length})`);
    const largest = Math.max(...payloads.map((p) => p.byteLength));
    assert.ok(largest <= MAX_PAYLOAD_BYTES, `largest payload ${largest} bytes`);
    // A message's summary (its first 80 characters) is in the history; the rest of the prompt is not.
    const body = Buffer.from('x'.repeat(200));
    assert.ok(!payloads.some((p) => Buffer.from(p).includes(body)), 'no prompt text beyond the summaries in the history');
  });
});
