/**
 * The job event stream follows the log in the database until the job's closing event: the
 * workflow records a status and the events that lead to it in one transaction (JobEventLog.record),
 * so the stream never waits for a record to catch up with an event. A real SQLite database and a
 * real HTTP server; the writes are the ones the workflow's activity makes.
 */
import assert from 'node:assert/strict';
import Koa from 'koa';
import { streamJobEvents } from '../../../api/agent/job-event-stream.js';
import { newJobRecord } from '../../../api/agent/create-job.js';
import { createJobEventLog, createJobStore, pollingJobWakeups, type NewJobEvent } from '../../../core/jobs/index.js';
import { createLogger } from '../../../core/logger.js';
import { testDatabase } from '../../support/databases.js';
import { serve } from '../../support/services.js';

describe('job event stream: ends at the closing event', function () {
  this.timeout(60_000);

  it('streams the turn live and ends with job.completed, recorded together with the completed status', async () => {
    const database = await testDatabase('sqlite');
    const events = createJobEventLog(database, pollingJobWakeups(database));
    const jobs = createJobStore(database);
    const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'm' });
    await jobs.create(job);
    const event = (key: string, type: NewJobEvent['type']): NewJobEvent => ({ key, type, time: new Date().toISOString(), jobId: job.id, projectId: 'docs', data: {} });
    await events.record(job, [event('turn:1:started', 'turn.started')]);

    const app = new Koa();
    app.use(async (ctx) => {
      // A heartbeat longer than the test's timeout: a stream that waits for one fails the test.
      const status = async () => (await jobs.get('docs', job.id))?.status;
      streamJobEvents(ctx, { events, status, inForce: async () => true }, { jobId: job.id, lastEventId: 0, stallTimeoutMs: 10_000, logger: createLogger('silent', 'test'), heartbeatMs: 600_000 });
    });
    const { url } = await serve(app);
    const reply = await fetch(url);
    const reader = reply.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /event: turn\.started/, 'the running turn is streamed before it ends');

    const completed = { ...job, status: 'completed' as const, turns: 1, revision: 1 };
    await events.record(completed, [event('turn:1:finished', 'turn.finished'), event('turn:1:completed', 'job.completed')]);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    assert.deepEqual([...`${first}${rest}`.matchAll(/^event: (.+)$/gm)].map((m) => m[1]), ['turn.started', 'turn.finished', 'job.completed']);
    assert.ok(!rest.includes(': keep-alive'), 'no heartbeat was due');
    assert.equal((await jobs.get('docs', job.id))?.status, 'completed');
  });

  it('a stale revision does not replace a newer record', async () => {
    const database = await testDatabase('sqlite');
    const events = createJobEventLog(database, pollingJobWakeups(database));
    const jobs = createJobStore(database);
    const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'm' });
    await events.record({ ...job, status: 'completed', revision: 2 }, []);
    // A timed-out attempt of an earlier write that commits late.
    await events.record({ ...job, status: 'active', revision: 1 }, []);
    assert.equal((await jobs.get('docs', job.id))?.status, 'completed');
  });
});
