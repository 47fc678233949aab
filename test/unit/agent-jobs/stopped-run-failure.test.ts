import assert from 'node:assert/strict';
import {
  failStrandedJobs,
  newJobRecord,
  reconcileJobsScheduleOptions,
  stoppedRunFailure,
  stoppedRunsQuery,
  stopReasonText,
  STOPPED_RUN_CODES,
  STOP_REASON_CHARS,
  type JobRecord,
  type JobStatus,
  type NewJobEvent,
  type StoppedRun,
} from '../../../core/jobs/index.js';
import { RECONCILE_JOBS_WORKFLOW, reconcileJobsScheduleId } from '../../../core/contracts/index.js';
import { createLogger } from '../../../core/logger.js';

const job = { ...newJobRecord({ projectId: 'docs', repository: 'https://git.example.com/docs.git', ref: 'main', model: 'm' }, new Date(Date.UTC(2026, 0, 1))), turns: 2, revision: 7 };
const NOW = '2026-01-01T01:00:00.000Z';

describe('a run stopped from outside fails its job', () => {
  it('one revision on, failed with the code of how it was stopped, and one job.failed event keyed by the run', () => {
    for (const status of ['TERMINATED', 'CANCELLED', 'TIMED_OUT'] as const) {
      const { job: failed, event } = stoppedRunFailure(job, { status, runId: 'run-1' }, NOW);
      assert.deepEqual([failed.status, failed.revision, failed.updatedAt, failed.error?.code], ['failed', 8, NOW, STOPPED_RUN_CODES[status]]);
      assert.deepEqual([event.type, event.key, event.jobId, event.time], ['job.failed', 'run:run-1:stopped', job.id, NOW]);
      assert.deepEqual(event.data, { turns: 2, error: failed.error });
    }
    assert.deepEqual(Object.values(STOPPED_RUN_CODES), ['run_terminated', 'run_canceled', 'run_timed_out', 'run_never_started']);
  });

  it("quotes the operator's terminate reason in the error's message", () => {
    const { job: failed } = stoppedRunFailure(job, { status: 'TERMINATED', runId: 'run-1', reason: 'stuck on a huge repo' }, NOW);
    assert.equal(
      failed.error?.message,
      `the job's workflow run was terminated in Temporal while the job was active (the reason given: "stuck on a huge repo"); send a message to start a new run`,
    );
    const { job: silent } = stoppedRunFailure(job, { status: 'TERMINATED', runId: 'run-1', reason: null }, NOW);
    assert.equal(silent.error?.message, "the job's workflow run was terminated in Temporal while the job was active; send a message to start a new run");
  });

  it('a run that never started fails its job with run_never_started, its event keyed once per job', () => {
    const { job: failed, event } = stoppedRunFailure(job, { status: 'NEVER_STARTED', runId: null }, NOW);
    assert.deepEqual([failed.status, failed.error?.code, event.key], ['failed', 'run_never_started', 'run:never-started:stopped']);
    assert.match(failed.error?.message ?? '', /never started in Temporal.*send a message to start a new run/);
  });
});

describe('the terminate reason a job quotes', () => {
  it('is one line, without control characters, trimmed', () => {
    assert.equal(stopReasonText('  stuck\non a\t\thuge\u0000 repo \r\n'), 'stuck on a huge repo');
  });

  it('masks keys, tokens and URL credentials', () => {
    const text = stopReasonText('push to https://bot:hunter2hunter2@git.example.com/docs.git failed with ghp_abcdefghijklmnopqrstuvwxyz0123');
    assert.ok(text && !text.includes('hunter2') && !text.includes('ghp_abcdefghijklmnopqrstuvwxyz0123'), text ?? '');
    assert.match(text, /\[redacted\]/);
  });

  it(`keeps at most ${STOP_REASON_CHARS} characters, whole code points`, () => {
    const long = stopReasonText('🙂'.repeat(STOP_REASON_CHARS + 5)) ?? '';
    assert.equal([...long].length, STOP_REASON_CHARS);
    assert.ok(long.endsWith('…'));
    assert.equal(stopReasonText('x'.repeat(STOP_REASON_CHARS)), 'x'.repeat(STOP_REASON_CHARS));
  });

  it("is none for an empty reason or the SDK's stand-in for a terminate without one", () => {
    for (const raw of [undefined, null, '', '  \n ', 'Workflow execution terminated']) assert.equal(stopReasonText(raw), null, JSON.stringify(raw));
  });
});

describe("Temporal's list filter of stopped runs", () => {
  it("names the agent-job runs of the deployment's task queue stopped from outside since a time", () => {
    assert.equal(
      stoppedRunsQuery('quire', new Date(Date.UTC(2026, 0, 1, 12))),
      "WorkflowType = 'agentJobWorkflow' AND TaskQueue = 'quire' AND ExecutionStatus IN ('Terminated', 'Canceled', 'TimedOut') AND CloseTime >= '2026-01-01T12:00:00.000Z'",
    );
  });

  it('escapes a task queue with quotes or backslashes', () => {
    assert.match(stoppedRunsQuery("it's\\q", new Date(0)), /TaskQueue = 'it\\'s\\\\q' AND/);
  });
});

describe('the job-reconcile schedule', () => {
  it("starts the reconcile workflow on the deployment's task queue every minute, never two at once", () => {
    const options = reconcileJobsScheduleOptions('quire-jobs');
    assert.equal(options.scheduleId, reconcileJobsScheduleId('quire-jobs'));
    assert.equal(options.scheduleId, 'quire-reconcile-jobs-quire-jobs');
    assert.deepEqual(options.spec.intervals, [{ every: '1 minute' }]);
    assert.equal(options.action.workflowType, RECONCILE_JOBS_WORKFLOW);
    assert.equal(options.action.taskQueue, 'quire-jobs');
    assert.equal(options.policies?.overlap, 'SKIP');
  });
});

/** A job store and a Temporal as failStrandedJobs sees them, in memory. */
function world(jobs: JobRecord[], runs: Record<string, StoppedRun | undefined>, listed: string[] = []) {
  const stored = new Map(jobs.map((j) => [j.id, j]));
  const written: Array<{ job: JobRecord; events: NewJobEvent[] }> = [];
  const keys = new Set<string>();
  const described: string[] = [];
  return {
    stored,
    written,
    described,
    options: {
      jobs: {
        get: async (_projectId: string, id: string) => stored.get(id),
        unchangedBefore: async (statuses: readonly JobStatus[], before: string, limit: number) =>
          [...stored.values()].filter((j) => statuses.includes(j.status) && j.updatedAt < before).slice(0, limit),
      },
      logger: createLogger('silent', 'test'),
      afterMs: 60_000,
      stoppedLately: async () => listed.map((id) => ({ projectId: 'docs', jobId: id })),
      stoppedRun: async (j: JobRecord) => (described.push(j.id), runs[j.id]),
      // As the event log does: the highest revision is kept, an event key is logged once.
      record: async (j: JobRecord, events: NewJobEvent[]) => {
        if ((stored.get(j.id)?.revision ?? -1) <= j.revision) stored.set(j.id, j);
        const fresh = events.filter((e) => !keys.has(e.key));
        for (const e of fresh) keys.add(e.key);
        written.push({ job: j, events: fresh });
      },
    },
  };
}

describe('failStrandedJobs', () => {
  const T = Date.UTC(2026, 0, 1, 12);
  const at = (msAgo: number) => new Date(T - msAgo).toISOString();
  const jobAt = (id: string, status: JobStatus, msAgo: number): JobRecord => ({ ...newJobRecord({ projectId: 'docs', repository: 'r', ref: 'main', model: 'm', jobId: id }), status, updatedAt: at(msAgo) });

  it("fails a listed job at once, whatever its age, and a second reconcile writes nothing", async () => {
    const w = world([jobAt('job_young', 'active', 1_000)], { job_young: { status: 'TERMINATED', runId: 'r1', reason: 'stop' } }, ['job_young']);
    const first = await failStrandedJobs(w.options, T);
    assert.deepEqual(first, { looked: 1, failed: 1, jobs: [{ jobId: 'job_young', code: 'run_terminated' }], cutShort: false });
    assert.equal(w.stored.get('job_young')?.status, 'failed');
    assert.match(w.stored.get('job_young')?.error?.message ?? '', /"stop"/);
    const second = await failStrandedJobs(w.options, T + 60_000);
    assert.deepEqual([second.looked, second.failed], [0, 0], 'the job is no longer active');
    assert.deepEqual(w.written.flatMap((x) => x.events.map((e) => e.type)), ['job.failed']);
  });

  it('leaves alone a job whose latest run is open or ended on its own, and one not active', async () => {
    const w = world([jobAt('job_running', 'active', 120_000), jobAt('job_done', 'completed', 120_000)], { job_running: undefined, job_done: { status: 'TERMINATED', runId: 'r' } }, ['job_running', 'job_done']);
    assert.deepEqual(await failStrandedJobs(w.options, T), { looked: 1, failed: 0, jobs: [], cutShort: false });
    assert.deepEqual(w.described, ['job_running'], 'a job not active costs no describe');
    assert.equal(w.written.length, 0);
  });

  it('fails a job with no workflow only once it is unchanged for afterMs (its create may still be starting the run)', async () => {
    const w = world([jobAt('job_new', 'active', 5_000)], { job_new: { status: 'NEVER_STARTED', runId: null } }, ['job_new']);
    assert.equal((await failStrandedJobs(w.options, T)).failed, 0);
    assert.equal((await failStrandedJobs(w.options, T + 60_000)).failed, 1);
    assert.equal(w.stored.get('job_new')?.error?.code, 'run_never_started');
  });

  it('finds an unlisted stopped job through the database once it is unchanged for afterMs', async () => {
    const w = world([jobAt('job_old', 'active', 90_000), jobAt('job_fresh', 'active', 10_000)], { job_old: { status: 'TIMED_OUT', runId: 'r' }, job_fresh: { status: 'TIMED_OUT', runId: 'r2' } });
    const result = await failStrandedJobs(w.options, T);
    assert.deepEqual(result.jobs, [{ jobId: 'job_old', code: 'run_timed_out' }]);
    assert.equal(w.stored.get('job_fresh')?.status, 'active', 'unlisted and young: the next reconcile looks');
  });

  it('skips a job a follow-up changed while its run was described', async () => {
    const w = world([jobAt('job_busy', 'active', 90_000)], {}, ['job_busy']);
    w.options.stoppedRun = async (j) => {
      w.stored.set(j.id, { ...j, revision: j.revision + 1 });
      return { status: 'TERMINATED', runId: 'r' };
    };
    assert.equal((await failStrandedJobs(w.options, T)).failed, 0);
    assert.equal(w.written.length, 0);
  });

  it('goes on past a job Temporal cannot describe, and on without the list when visibility fails; stops when told', async () => {
    const w = world([jobAt('job_a', 'active', 90_000), jobAt('job_b', 'active', 80_000)], { job_b: { status: 'CANCELLED', runId: 'r' } });
    w.options.stoppedLately = async () => {
      throw new Error('visibility down');
    };
    const describe = w.options.stoppedRun;
    w.options.stoppedRun = async (j) => (j.id === 'job_a' ? Promise.reject(new Error('deadline exceeded')) : describe(j));
    assert.deepEqual((await failStrandedJobs(w.options, T)).jobs, [{ jobId: 'job_b', code: 'run_canceled' }]);
    const cut = await failStrandedJobs({ ...w.options, stopping: () => true }, T);
    assert.deepEqual([cut.looked, cut.cutShort], [0, true]);
  });
});
