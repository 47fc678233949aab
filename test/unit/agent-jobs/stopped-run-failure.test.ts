import assert from 'node:assert/strict';
import { newJobRecord, stoppedRunFailure, STOPPED_RUN_CODES } from '../../../core/jobs/index.js';

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

  it('a run that never started fails its job with run_never_started, its event keyed once per job', () => {
    const { job: failed, event } = stoppedRunFailure(job, { status: 'NEVER_STARTED', runId: null }, NOW);
    assert.deepEqual([failed.status, failed.error?.code, event.key], ['failed', 'run_never_started', 'run:never-started:stopped']);
    assert.match(failed.error?.message ?? '', /never started in Temporal.*send a message to start a new run/);
  });
});
