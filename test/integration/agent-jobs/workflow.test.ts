/**
 * The job workflow on the real Temporal dev server, with stand-in agent
 * activities so turn timing (a turn that blocks until cancelled, a turn that
 * fails permanently) is under the test's control. The job store activity is real.
 * End-to-end runs with the real agent activities live in jobs-api.test.ts.
 */
import assert from 'node:assert/strict';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { createActivities } from '../../../activities/index.js';
import { firstRunInput, jobStartOptions, newJobRecord } from '../../../api/agent/create-job.js';
import type { AgentTurnInput, AgentTurnResult, PullRequestInput } from '../../../activities/agent/index.js';
import {
  AGENT_JOB_WORKFLOW,
  archiveSignal,
  archiveUpdate,
  JOB_ARCHIVED,
  messageSignal,
  sendMessageUpdate,
  type AgentJobInput,
  type AgentJobWorkflow,
} from '../../../core/contracts/index.js';
import { parseJobRecord, type JobRecord } from '../../../core/jobs/index.js';
import { testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';

type TurnScript = (input: AgentTurnInput) => Promise<AgentTurnResult>;

const changed = (input: AgentTurnInput): AgentTurnResult => ({
  changed: true,
  commitSha: `sha-${input.turn}`,
  filesChanged: [`page-${input.turn}.mdx`],
  title: `Turn ${input.turn}`,
  summary: input.messages.map((m) => m.summary).join(' / '),
  validationErrors: [],
  stopReason: 'finish',
  steps: 2,
});

function jobInput(overrides: Partial<AgentJobInput> = {}, idleArchiveDays = 30): AgentJobInput {
  const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'gpt-test' });
  const settings = { draft: false, idleArchiveDays, turnTimeoutSeconds: 60, heartbeatSeconds: 2 };
  return { ...firstRunInput(job, { id: 'm-1', summary: 'first prompt' }, settings), ...overrides };
}

describe('agent job workflow (stand-in agent activities)', function () {
  this.timeout(60_000);
  const allTurns: AgentTurnInput[] = [];
  const allPrs: PullRequestInput[] = [];
  // Workflows of earlier tests may still run; each test looks only at its own job.
  let current = '';
  const turns = { get length() { return allTurns.filter((t) => t.jobId === current).length; }, at: (i: number) => allTurns.filter((t) => t.jobId === current)[i] };
  const prs = { get length() { return allPrs.filter((p) => p.jobId === current).length; }, at: (i: number) => allPrs.filter((p) => p.jobId === current)[i] };
  let script: TurnScript = async (input) => changed(input);
  let taskQueue: string;
  let services: Awaited<ReturnType<typeof testServices>>;

  before(async () => {
    services = await testServices();
    const real = createActivities(services);
    const worker = await startWorker(services, {
      activities: {
        ...real,
        runAgentTurn: async (input) => {
          allTurns.push(input);
          return script(input);
        },
        openOrUpdatePullRequest: async (input) => {
          allPrs.push(input);
          return { url: `http://forge.test/pr/${input.jobId}`, number: 1, created: input.turn === 1 };
        },
      },
    });
    taskQueue = worker.taskQueue;
  });
  beforeEach(() => {
    script = async (input) => changed(input);
  });

  async function start(input: AgentJobInput) {
    const { client } = await temporalEnv();
    current = input.job.id;
    return client.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, jobStartOptions(input, taskQueue));
  }
  async function memoJob(handle: Awaited<ReturnType<typeof start>>): Promise<JobRecord | undefined> {
    return parseJobRecord((await handle.describe()).memo?.job);
  }
  async function until(handle: Awaited<ReturnType<typeof start>>, ok: (job: JobRecord) => boolean): Promise<JobRecord> {
    for (let i = 0; i < 300; i++) {
      const job = await memoJob(handle);
      if (job && ok(job)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('job never reached the expected state');
  }

  it('runs a turn, opens the PR, completes, and records the state in the job store', async () => {
    const input = jobInput();
    const handle = await start(input);
    const done = await until(handle, (j) => j.status === 'completed');
    assert.equal(done.prLink, `http://forge.test/pr/${input.job.id}`);
    assert.equal(turns.length, 1);
    assert.equal(turns.at(0)?.branch, `quire/${input.job.id}`);
    assert.deepEqual(prs.at(0)?.messageIds, ['m-1']);
    // The store is written before the memo changes: whoever sees `completed` finds it in the store.
    const stored = await services.jobs.get('docs', input.job.id);
    assert.equal(stored?.status, 'completed');
    assert.equal(stored?.revision, done.revision);
  });

  it('shows active as soon as a message is accepted, queues it behind a running turn, and ignores a repeated id', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    script = async (input) => {
      if (input.turn === 1) await gate;
      return changed(input);
    };
    const input = jobInput({ seenMessageIds: ['m-1', 'carried-id'] });
    const handle = await start(input);
    await until(handle, () => turns.length === 1);
    const accepted = await handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'm-2', summary: 'second' }] });
    assert.equal(accepted.status, 'active');
    await handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'm-2', summary: 'second again' }] });
    await handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'carried-id', summary: 'seen before continue-as-new' }] });
    // The first message's id counts as seen too.
    await handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'm-1', summary: 'the first prompt again' }] });
    release();
    const done = await until(handle, (j) => j.status === 'completed' && turns.length === 2);
    assert.deepEqual(turns.at(1)?.messages.map((m) => m.summary), ['second']);
    assert.equal(done.prLink, `http://forge.test/pr/${input.job.id}`);
    // After completion, a new message flips the memo to active before the update returns.
    await handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'm-3', summary: 'third' }] });
    assert.equal((await memoJob(handle))?.status, 'active');
    await until(handle, (j) => j.status === 'completed' && turns.length === 3);
  });

  it('accepts messages and archive as signals too (Temporal UI, CLI), dropping repeats and malformed ones', async () => {
    const input = jobInput();
    const handle = await start(input);
    await until(handle, (j) => j.status === 'completed' && turns.length === 1);
    await handle.signal(messageSignal, { id: 'sig-1', prompt: 'from the UI' });
    await handle.signal(messageSignal, { id: 'sig-1', prompt: 'repeated' });
    // What a person might type in the UI's signal form: no id.
    await handle.signal('message', { prompt: 'no id' });
    await until(handle, (j) => j.status === 'completed' && turns.length === 2);
    assert.deepEqual(turns.at(1)?.messages.map((m) => m.summary), ['from the UI']);
    // The signalled prompt went to the job store; the first of a repeated id was kept.
    const stored = await services.jobs.getMessages('docs', input.job.id, ['sig-1']);
    assert.deepEqual(stored, [{ id: 'sig-1', prompt: 'from the UI' }]);
    await handle.signal(archiveSignal);
    assert.equal((await handle.result()).status, 'archived');
    assert.equal(turns.length, 2, 'archive did not run another turn');
  });

  it('archive cancels a running turn and ends the workflow archived; later messages are refused', async () => {
    let cancelled = false;
    script = async () => {
      const ctx = Context.current();
      for (;;) {
        ctx.heartbeat();
        try {
          await ctx.sleep(100);
        } catch (err) {
          cancelled = true;
          throw err;
        }
      }
    };
    const handle = await start(jobInput());
    await until(handle, () => turns.length === 1);
    const archived = await handle.executeUpdate(archiveUpdate);
    assert.equal(archived.status, 'archived');
    assert.ok(archived.archivedAt);
    const result = await handle.result();
    assert.equal(result.status, 'archived');
    // The workflow waits for the turn to finish cancelling (WAIT_CANCELLATION_COMPLETED) before it ends.
    assert.equal(cancelled, true, 'the running turn saw the cancellation');
    assert.equal(prs.length, 0);
  });

  it('rejects a message to an archived job with the JobArchived failure', async () => {
    const input = jobInput({ pending: [] });
    const handle = await start(input);
    await handle.executeUpdate(archiveUpdate);
    // A second archive is idempotent while the workflow finishes.
    await assert.rejects(
      handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'late', summary: 'too late' }] }),
      (err: unknown) =>
        (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === JOB_ARCHIVED) ||
        (err instanceof Error && /completed|not found/i.test(err.message)),
    );
  });

  it('a permanent failure fails the job with a code; a later message resumes it', async () => {
    script = async (input) => {
      if (input.turn === 1) throw ApplicationFailure.create({ type: 'ModelNotConfigured', message: 'no model is configured' });
      return changed(input);
    };
    const handle = await start(jobInput());
    const failed = await until(handle, (j) => j.status === 'failed');
    assert.deepEqual(failed.error, { code: 'model_not_configured', message: 'no model is configured' });
    assert.equal(turns.length, 1, 'a non-retryable error is not retried');
    await handle.executeUpdate(sendMessageUpdate, { args: [{ id: 'retry', summary: 'try again' }] });
    const resumed = await until(handle, (j) => j.status === 'completed');
    assert.equal(resumed.error, null);
    assert.ok(resumed.prLink);
  });

  it('a job with no change completes with a null prLink and opens no PR', async () => {
    script = async (input) => ({ ...changed(input), changed: false, commitSha: null, filesChanged: [] });
    const handle = await start(jobInput());
    const done = await until(handle, (j) => j.status === 'completed');
    assert.equal(done.prLink, null);
    assert.equal(prs.length, 0);
  });

  it('archives itself after the idle period', async () => {
    const handle = await start(jobInput({}, 1 / 86_400)); // one second
    const result = await handle.result();
    assert.equal(result.status, 'archived');
    assert.equal(turns.length, 1);
  });
});
