/**
 * The job event stream ends as soon as the job's record catches up with its closing event. The
 * workflow logs `job.completed` before it records the idle state, so a stream can see the event
 * while the record still says `active`; it must look again soon rather than after a heartbeat.
 * The event log on a real SQLite database and a real HTTP server; the job's status is scripted.
 */
import assert from 'node:assert/strict';
import Koa from 'koa';
import { streamJobEvents } from '../../../api/agent/job-event-stream.js';
import { createJobEventLog, newJobId, pollingJobWakeups, type JobStatus } from '../../../core/jobs/index.js';
import { createLogger } from '../../../core/logger.js';
import { testDatabase } from '../../support/databases.js';
import { serve } from '../../support/services.js';

describe('job event stream: a record that lags behind the closing event', function () {
  this.timeout(60_000);

  it('ends once the record says idle, without waiting for a heartbeat', async () => {
    const database = await testDatabase('sqlite');
    const events = createJobEventLog(database, pollingJobWakeups(database));
    const jobId = newJobId();
    const at = new Date().toISOString();
    for (const [key, type] of [['turn:1:started', 'turn.started'], ['turn:1:completed', 'job.completed']] as const) {
      await events.append({ key, type, time: at, jobId, projectId: 'docs', data: {} });
    }
    // The record still says active for the first reads after the closing event, then catches up.
    let reads = 0;
    const status = async (): Promise<JobStatus> => (++reads <= 3 ? 'active' : 'completed');
    const app = new Koa();
    app.use(async (ctx) => {
      // A heartbeat longer than the test's timeout: a stream that waits for one fails the test.
      streamJobEvents(ctx, { events, status }, { jobId, lastEventId: 0, stallTimeoutMs: 10_000, logger: createLogger('silent', 'test'), heartbeatMs: 600_000 });
    });
    const { url } = await serve(app);
    const text = await (await fetch(url)).text();
    assert.deepEqual([...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]), ['turn.started', 'job.completed']);
    assert.equal(reads, 4, 'read again until the record caught up');
    assert.ok(!text.includes(': keep-alive'), 'no heartbeat was due');
  });
});
