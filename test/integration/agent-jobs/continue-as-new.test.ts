/**
 * Continue-as-new on a real dev server told to suggest it early (after 40
 * history events): the job keeps its state, turn count and PR link, and a
 * message id seen before continue-as-new is still ignored after it (Temporal
 * de-duplicates updates only within one run). Stand-in agent activities keep
 * the turns short; the job store activity is real.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../../activities/index.js';
import type { AgentTurnInput } from '../../../activities/agent/index.js';
import { firstRunInput, jobStartOptions, newJobRecord } from '../../../api/agent/create-job.js';
import { AGENT_JOB_WORKFLOW, JOB_STATUS, SEARCH_ATTRIBUTES, sendMessageUpdate, type AgentJobWorkflow } from '../../../core/contracts/index.js';
import { parseJobRecord } from '../../../core/jobs/index.js';
import { createWorker } from '../../../worker/create-worker.js';
import { testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { TEMPORAL_BIN, workflowCode } from '../../support/temporal.js';
import { startTracing } from '../../../core/telemetry/index.js';

describe('agent job workflow across continue-as-new', function () {
  this.timeout(120_000);

  it('carries the state, turn count and seen message ids into the next run', async () => {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: TEMPORAL_BIN },
        searchAttributes: SEARCH_ATTRIBUTES,
        extraArgs: ['--log-level', 'error', '--dynamic-config-value', 'limit.historyCount.suggestContinueAsNew=40'],
      },
    });
    onSuiteEnd(() => env.teardown());
    const services = await testServices({ withTemporal: false });
    const turns: AgentTurnInput[] = [];
    const taskQueue = `can-${randomUUID()}`;
    const worker = await createWorker({
      connection: env.nativeConnection,
      namespace: 'default',
      taskQueue,
      activities: {
        ...createActivities(services),
        runAgentTurn: async (input) => {
          turns.push(input);
          return { changed: true, commitSha: `sha${input.turn}`, filesChanged: ['a.mdx'], title: 't', summary: 's', validationErrors: [], stopReason: 'finish', steps: 1 };
        },
        openOrUpdatePullRequest: async (input) => ({ url: `http://forge.test/pr/${input.jobId}`, number: 1, created: input.turn === 1 }),
      },
      workflows: { code: await workflowCode() },
      maxActivities: 4,
      tracing: startTracing('quire-test', {}),
      shutdownGraceMs: 1000,
    });
    const running = worker.run();
    onSuiteEnd(async () => {
      worker.shutdown();
      await running;
    });

    const job = newJobRecord({ projectId: 'docs', repository: 'r', ref: 'main', model: 'm' });
    const input = firstRunInput(job, { id: 'm0', summary: 'p0' }, { draft: false, idleArchiveDays: 30, turnTimeoutSeconds: 60, heartbeatSeconds: 20 });
    const handle = await env.client.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, jobStartOptions(input, taskQueue));
    const firstRun = handle.firstExecutionRunId;
    const memo = async () => parseJobRecord((await env.client.workflow.getHandle(handle.workflowId).describe()).memo?.job);
    const settle = async (turnCount: number) => {
      for (let i = 0; i < 200; i++) {
        const current = await memo();
        if (current?.status === 'completed' && turns.filter((t) => t.jobId === job.id).length === turnCount) return current;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the job did not settle after turn ${turnCount}`);
    };
    await settle(1);
    let sent = 1;
    // Each turn adds ~12 events; keep going until the run has continued as new.
    while ((await env.client.workflow.getHandle(handle.workflowId).describe()).runId === firstRun) {
      assert.ok(sent < 20, 'continue-as-new never happened');
      await env.client.workflow.getHandle(handle.workflowId).executeUpdate(sendMessageUpdate, { args: [{ id: `m${sent}`, summary: `p${sent}` }] });
      sent += 1;
      await settle(sent);
    }
    // The new run starts with the state the old one ended with, not with the memo the job was
    // created with (what Temporal carries over when continue-as-new names no memo).
    const described = await env.client.workflow.getHandle(handle.workflowId).describe();
    const history = await env.client.workflow.getHandle(handle.workflowId, described.runId).fetchHistory();
    const startMemo = history.events?.[0]?.workflowExecutionStartedEventAttributes?.memo?.fields?.job;
    const carried = parseJobRecord(startMemo ? defaultPayloadConverter.fromPayload(startMemo) : undefined);
    assert.equal(carried?.prLink, `http://forge.test/pr/${job.id}`, 'the next run starts from the last state');
    const after = parseJobRecord(described.memo?.job);
    assert.equal(after?.status, 'completed');
    assert.equal(after?.prLink, `http://forge.test/pr/${job.id}`);
    assert.deepEqual(described.typedSearchAttributes.get(JOB_STATUS), 'completed');
    assert.equal(turns.filter((t) => t.jobId === job.id).length, sent);
    // A message id from the first run is ignored by the second.
    const latest = env.client.workflow.getHandle(handle.workflowId);
    const replayed = await latest.executeUpdate(sendMessageUpdate, { args: [{ id: 'm1', summary: 'p1 again' }] });
    assert.equal(replayed.status, 'completed');
    // A new id still runs a turn, numbered after the first run's turns.
    await latest.executeUpdate(sendMessageUpdate, { args: [{ id: 'fresh', summary: 'new' }] });
    await settle(sent + 1);
    const mine = turns.filter((t) => t.jobId === job.id);
    assert.deepEqual(mine.map((t) => t.turn), mine.map((_, i) => i + 1));
    assert.equal(mine.at(-1)?.messages[0]?.summary, 'new');
    assert.ok(!mine.some((t) => t.messages.some((m) => m.summary === 'p1 again')));
  });
});
