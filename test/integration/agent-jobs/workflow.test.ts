/**
 * The job workflow on the real Temporal dev server, with stand-in agent
 * activities so turn timing (a turn that blocks until cancelled, a turn that
 * fails permanently) is under the test's control. The job activities and the
 * database are real. End-to-end runs with the real agent activities live in
 * jobs-e2e.test.ts.
 *
 * Each turn is one workflow run under the job's id: it ends Completed, or Failed
 * with the job's error; a follow-up or an archive reaches the job by
 * update-with-start (the open run, or a new one).
 */
import assert from 'node:assert/strict';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { createActivities } from '../../../activities/index.js';
import { jobRunOptions, jobSettings, newJobRecord, runInput } from '../../../api/agent/create-job.js';
import type { AgentTurnInput, AgentTurnResult, PullRequestInput } from '../../../activities/agent/index.js';
import { AGENT_JOB_WORKFLOW, JOB_ARCHIVED, JOB_STATUS, messageRef, type AgentJobWorkflow, type JobMessage } from '../../../core/contracts/index.js';
import { archiveJobRun, sendJobMessage, type JobRecord, type JobRunDeps } from '../../../core/jobs/index.js';
import { testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';

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

describe('agent job workflow (stand-in agent activities)', function () {
  this.timeout(60_000);
  const allTurns: AgentTurnInput[] = [];
  const allPrs: PullRequestInput[] = [];
  // Workflows of earlier tests may still run; each test looks only at its own job.
  let current = '';
  const turns = { get length() { return allTurns.filter((t) => t.jobId === current).length; }, at: (i: number) => allTurns.filter((t) => t.jobId === current)[i] };
  const prs = { get length() { return allPrs.filter((p) => p.jobId === current).length; } };
  let script: TurnScript = async (input) => changed(input);
  /** What the pull request step does before it answers (nothing by default). */
  let prStep = async () => {};
  let services: Awaited<ReturnType<typeof testServices>>;
  let deps: JobRunDeps;

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
          await prStep();
          return { url: `http://forge.test/pr/${input.jobId}`, number: 1, created: input.turn === 1 };
        },
      },
    });
    deps = { temporal: services.temporal, config: { ...services.config, temporal: { ...services.config.temporal, taskQueue: worker.taskQueue } } };
  });
  beforeEach(() => {
    script = async (input) => changed(input);
    prStep = async () => {};
  });

  /** What the API's create does: the first record and message in the database, then the first run. */
  async function create(prompt = 'first prompt') {
    const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'gpt-test' });
    const first: JobMessage = { id: `m-1-${job.id}`, prompt };
    await services.jobs.create(job);
    await services.jobs.putMessage('docs', job.id, first);
    current = job.id;
    const input = runInput(job, { ...jobSettings(deps.config, false), heartbeatSeconds: 2 }, [messageRef(first)]);
    const handle = await services.temporal.workflow.start<AgentJobWorkflow>(
      AGENT_JOB_WORKFLOW,
      jobRunOptions(job, input, { summary: prompt, status: 'active' }, deps.config.temporal.taskQueue),
    );
    return { job, handle, first };
  }
  async function send(job: JobRecord, id: string, prompt: string): Promise<JobRecord> {
    const message = { id, prompt };
    await services.jobs.putMessage(job.projectId, job.id, message);
    return sendJobMessage(deps, job, message);
  }
  async function until(jobId: string, ok: (job: JobRecord) => boolean): Promise<JobRecord> {
    for (let i = 0; i < 300; i++) {
      const job = await services.jobs.get('docs', jobId);
      if (job && ok(job)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('job never reached the expected state');
  }
  const latestRun = (jobId: string) => services.temporal.workflow.getHandle(jobId);

  it('runs a turn, opens the PR, records the job completed, and the run ends Completed', async () => {
    const { job, handle, first } = await create();
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    assert.equal(result.prLink, `http://forge.test/pr/${job.id}`);
    assert.equal(turns.length, 1);
    assert.equal(turns.at(0)?.branch, `quire/${job.id}`);
    const described = await handle.describe();
    assert.equal(described.status.name, 'COMPLETED');
    assert.equal(described.typedSearchAttributes.get({ name: 'QuireJobStatus', type: 'KEYWORD' } as never), 'completed');
    const stored = await services.jobs.get('docs', job.id);
    assert.deepEqual(stored, result, 'the database holds what the run ended with');
    const events = await services.events.after(job.id, 0);
    assert.deepEqual(events.map((e) => e.type), ['turn.started', 'turn.finished', 'pull_request.opened', 'job.completed']);
    assert.deepEqual(events[0]?.data.messageIds, [first.id]);
  });

  it('a message that arrives during a turn is handled by a further turn of the same run; a repeated id is not', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    script = async (input) => {
      if (input.turn === 1) await gate;
      return changed(input);
    };
    const { job, handle, first } = await create();
    await until(job.id, (j) => j.status === 'active' && turns.length === 1);
    const accepted = await send(job, 'm-2', 'second');
    assert.equal(accepted.status, 'active');
    await send(job, 'm-2', 'second again');
    release();
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    assert.equal(turns.length, 2);
    assert.deepEqual(turns.at(1)?.messages.map((m) => m.summary), ['second']);
    assert.equal((await latestRun(job.id).describe()).runId, handle.firstExecutionRunId, 'one run handled both turns');
    // After the run ended: a repeated update id answers as the first time did (Temporal keeps its outcome)…
    assert.deepEqual(await sendJobMessage(deps, result, { id: 'm-2', prompt: 'second' }), accepted);
    // …and a message a turn already took (the first one, never an update) starts a run that runs no turn and changes nothing.
    const again = await sendJobMessage(deps, result, first);
    assert.deepEqual(again, result);
    await latestRun(job.id).result();
    assert.equal(turns.length, 2);
  });

  it('a permanent failure fails the run with the job error; a follow-up starts the next run under the same id', async () => {
    script = async (input) => {
      if (input.turn === 1) throw ApplicationFailure.create({ type: 'ModelNotConfigured', message: 'no model is configured' });
      return changed(input);
    };
    const { job, handle } = await create();
    const failure = await handle.result().then(() => undefined, (err: unknown) => err);
    assert.ok(failure instanceof WorkflowFailedError);
    assert.ok(failure.cause instanceof ApplicationFailure);
    assert.equal(failure.cause.message, 'no model is configured');
    assert.equal(failure.cause.type, 'model_not_configured');
    assert.equal((await handle.describe()).status.name, 'FAILED');
    const failed = await services.jobs.get('docs', job.id);
    assert.deepEqual(failed?.error, { code: 'model_not_configured', message: 'no model is configured' });
    assert.equal(turns.length, 1, 'a non-retryable error is not retried');

    const resumed = await send(failed!, 'retry', 'try again');
    assert.equal(resumed.status, 'active');
    assert.equal(resumed.error, null);
    const second = latestRun(job.id);
    const done = await second.result();
    assert.equal(done.status, 'completed');
    assert.equal(done.turns, 2);
    const described = await second.describe();
    assert.notEqual(described.runId, handle.firstExecutionRunId, 'a second run');
    assert.equal(described.status.name, 'COMPLETED');
  });

  it('archive cancels a running turn and the run ends archived; later messages are refused', async () => {
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
    const { job, handle } = await create();
    await until(job.id, () => turns.length === 1);
    const archived = await archiveJobRun(deps, job);
    assert.equal(archived.status, 'archived');
    assert.ok(archived.archivedAt);
    // The update answered once the turn had stopped (WAIT_CANCELLATION_COMPLETED) and the state was recorded.
    assert.equal(cancelled, true, 'the running turn saw the cancellation');
    assert.deepEqual(await services.jobs.get('docs', job.id), archived);
    assert.equal((await handle.result()).status, 'archived');
    assert.equal(prs.length, 0);
    assert.equal((await services.events.latest(job.id))?.type, 'job.archived');
    await assert.rejects(send(archived, 'late', 'too late'), (err: unknown) =>
      err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === JOB_ARCHIVED,
    );
  });

  it('archive during the pull request step waits for it: the archived job names the pull request it opened', async () => {
    let finished = false;
    prStep = async () => {
      await new Promise((r) => setTimeout(r, 1500));
      finished = true;
    };
    const { job, handle } = await create();
    await until(job.id, () => prs.length === 1);
    const archived = await archiveJobRun(deps, job);
    assert.equal(finished, true, 'the pull request step ran to its end before the archive answered');
    assert.equal(archived.status, 'archived');
    assert.equal(archived.prLink, `http://forge.test/pr/${job.id}`);
    assert.equal((await services.jobs.get('docs', job.id))?.prLink, archived.prLink);
    assert.equal((await handle.result()).prLink, archived.prLink);
  });

  it('archive of a job with no open run starts one that archives it', async () => {
    script = async (input) => ({ ...changed(input), changed: false, commitSha: null, filesChanged: [] });
    const { job, handle } = await create();
    const done = await handle.result();
    assert.equal(done.prLink, null, 'a turn with no change completes with a null prLink');
    assert.equal(prs.length, 0);
    const archived = await archiveJobRun(deps, done);
    assert.equal(archived.status, 'archived');
    assert.equal((await archiveJobRun(deps, done)).status, 'archived', 'idempotent');
    assert.equal((await latestRun(job.id).result()).status, 'archived');
    assert.equal(turns.length, 1);
  });

  it("a run started from a stale read of the job shows the job's own status in the list, not the one it was started with", async () => {
    const status = async (jobId: string) => (await latestRun(jobId).describe()).typedSearchAttributes.get(JOB_STATUS);
    const { job, handle } = await create();
    const done = await handle.result();
    assert.equal((await archiveJobRun(deps, done)).status, 'archived');
    await latestRun(job.id).result();
    // A follow-up that read the job before the archive: the run it starts is refused, and lists the job archived.
    await assert.rejects(send(done, 'stale', 'read before the archive'), (err: unknown) => err instanceof WorkflowUpdateFailedError);
    await latestRun(job.id).result();
    assert.equal(await status(job.id), 'archived');
    // An archive sent again with the record read before the first: its run lists the job archived too.
    assert.equal((await archiveJobRun(deps, done)).status, 'archived');
    await latestRun(job.id).result();
    assert.equal(await status(job.id), 'archived');
  });
});
