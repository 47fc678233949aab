/**
 * Job create on the real Temporal dev server and a real database of each dialect: the record and
 * the first run's start go out at the same time, so the run's first load can look before the
 * record is committed. The job activities are real (with a short wait for a missing record); the
 * agent's turn is a stand-in that changes nothing.
 */
import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { createActivities } from '../../../activities/index.js';
import { createJobActivities } from '../../../activities/jobs/index.js';
import type { AgentTurnInput } from '../../../activities/agent/index.js';
import { AGENT_JOB_WORKFLOW, JOB_NOT_FOUND, messageRef, type AgentJobWorkflow } from '../../../core/contracts/index.js';
import { createJob, jobRunOptions, jobSettings, newJobRecord, runInput, type JobRequest } from '../../../api/agent/create-job.js';
import type { JobStore } from '../../../core/jobs/index.js';
import type { Config } from '../../../core/config.js';
import type { ApiServices } from '../../../api/services.js';
import { databaseEnv, DIALECTS, freshTarget } from '../../support/databases.js';
import { testPlatform, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';

/** How long the test worker's first load waits for a record that never comes. */
const RECORD_WAIT_MS = 1500;

const request = (patch: Partial<JobRequest> = {}): JobRequest => ({
  projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'gpt-test', prompt: 'Fix the typo', draft: false, ...patch,
});

for (const dialect of DIALECTS) {
  describe(`job create (${dialect})`, function () {
    this.timeout(60_000);
    let services: ApiServices;
    let config: Config;
    /** Job ids whose first load found no record, each time it looked. */
    const misses: string[] = [];
    /** Called on a job's first miss (a test waits on it). */
    const onMiss = new Map<string, () => void>();

    before(async () => {
      services = await testServices({ env: databaseEnv(await freshTarget(dialect)) });
      const jobs = createJobActivities(services, RECORD_WAIT_MS);
      const worker = await startWorker(services, {
        activities: {
          ...createActivities(services),
          ...jobs,
          loadJob: async (input) => {
            try {
              return await jobs.loadJob(input);
            } catch (err) {
              misses.push(input.jobId);
              onMiss.get(input.jobId)?.();
              throw err;
            }
          },
          runAgentTurn: async (input: AgentTurnInput) => ({
            changed: false, commitSha: null, filesChanged: [], title: `Turn ${input.turn}`, summary: 'nothing to change', validationErrors: [], stopReason: 'finish', steps: 1,
          }),
        },
      });
      config = { ...services.config, temporal: { ...services.config.temporal, taskQueue: worker.taskQueue } };
    });

    it('a record committed after the run first looked for it: the run retries its load, finds it and completes', async () => {
      const jobId = `job_late_${dialect}`;
      const looked = new Promise<void>((resolve) => onMiss.set(jobId, resolve));
      // The real store, its write held until the run's first load has missed the record.
      const late: JobStore = { ...services.jobs, create: async (job, messages) => looked.then(() => services.jobs.create(job, messages)) };
      const { job } = await createJob({ temporal: services.temporal, store: late, config }, request({ jobId }));
      assert.equal(job.id, jobId);
      const done = await services.temporal.workflow.getHandle<AgentJobWorkflow>(jobId).result();
      assert.equal(done.status, 'completed');
      assert.equal(done.turns, 1);
      assert.ok(misses.includes(jobId), 'the first load looked before the record was there');
      assert.equal((await services.jobs.get('docs', jobId))?.status, 'completed');
    });

    it('a record never written: the run fails with JobNotFound once the bounded wait is over', async () => {
      const job = newJobRecord(request());
      const ref = messageRef({ id: 'first', prompt: 'Fix the typo' });
      const handle = await services.temporal.workflow.start<AgentJobWorkflow>(
        AGENT_JOB_WORKFLOW,
        jobRunOptions(job, runInput(job, jobSettings(config, false), [ref]), { summary: ref.summary, status: 'active' }, config.temporal.taskQueue),
      );
      const err = await handle.result().then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof WorkflowFailedError, `failed run: ${String(err)}`);
      assert.ok(err.cause instanceof ActivityFailure && err.cause.cause instanceof ApplicationFailure, String(err.cause));
      assert.equal(err.cause.cause.type, JOB_NOT_FOUND);
      assert.ok(misses.filter((id) => id === job.id).length >= 2, 'the load looked more than once before giving up');
    });

    it('a write that fails leaves no running workflow', async () => {
      // A store over a database that is closed: the write fails in the engine itself.
      const other = await testPlatform(services.config);
      await other.close();
      let id = '';
      const store: JobStore = { ...other.jobs, create: (job, messages) => ((id = job.id), other.jobs.create(job, messages)) };
      await assert.rejects(createJob({ temporal: services.temporal, store, config }, request()));
      const run = await services.temporal.workflow.getHandle(id).describe();
      assert.equal(run.status.name, 'TERMINATED', 'the run the create started was stopped');
      assert.equal(await services.jobs.get('docs', id), undefined);
    });

    it('a start that fails forgets the record', async () => {
      // A task queue name Temporal refuses.
      const refused = { ...config, temporal: { ...config.temporal, taskQueue: 'q'.repeat(2000) } };
      let id = '';
      const store: JobStore = { ...services.jobs, create: (job, messages) => ((id = job.id), services.jobs.create(job, messages)) };
      await assert.rejects(createJob({ temporal: services.temporal, store, config: refused }, request()));
      assert.ok(id);
      assert.equal(await services.jobs.get('docs', id), undefined);
    });

    it('a caller-chosen job id is idempotent: repeats answer the same job, with one record and one turn', async () => {
      const jobId = `job_again_${dialect}`;
      const deps = { temporal: services.temporal, store: services.jobs, config };
      const [a, b] = await Promise.all([createJob(deps, request({ jobId })), createJob(deps, request({ jobId }))]);
      assert.deepEqual([a.job.id, b.job.id], [jobId, jobId]);
      assert.deepEqual([a.made, b.made].sort(), [false, true], 'one of them wrote the record, and says so');
      const done = await services.temporal.workflow.getHandle<AgentJobWorkflow>(jobId).result();
      assert.equal(done.status, 'completed');
      assert.equal(done.turns, 1, 'the second create joined the run of the first');
      const again = await createJob(deps, request({ jobId }));
      assert.equal(again.job.status, 'completed', 'a later repeat answers the record the run wrote');
      assert.equal(again.made, false);
      await services.temporal.workflow.getHandle<AgentJobWorkflow>(jobId).result();
      assert.equal((await services.jobs.get('docs', jobId))?.turns, 1, 'its run found the message handled');
    });
  });
}
