import assert from 'node:assert/strict';
import { createJobEventLog, pollingJobWakeups, redisJobWakeups, type JobEventLog, type JobWakeups, type NewJobEvent } from '../../../core/jobs/index.js';
import { forEachDialect } from '../../support/databases.js';
import { sharedRedis } from '../../support/redis.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { testConfig, testPlatform } from '../../support/services.js';

function event(jobId: string, key: string, patch: Partial<NewJobEvent> = {}): NewJobEvent {
  return { key, type: 'tool.step', time: '2026-01-01T00:00:00.000Z', jobId, projectId: 'docs', data: { tool: 'read', key }, ...patch };
}

forEachDialect('job event log', (database) => {
  let log: JobEventLog;
  beforeEach(() => {
    log = createJobEventLog(database(), pollingJobWakeups(database()));
  });

  it('numbers each job’s events 1, 2, 3… in append order, apart from other jobs', async () => {
    const a1 = await log.append(event('job_a', 'turn:1:started', { type: 'turn.started' }));
    const b1 = await log.append(event('job_b', 'turn:1:started', { type: 'turn.started' }));
    const a2 = await log.append(event('job_a', 'turn:1:step:1'));
    assert.deepEqual([a1.seq, a2.seq, b1.seq], [1, 2, 1]);
    assert.deepEqual(a2, { seq: 2, type: 'tool.step', time: '2026-01-01T00:00:00.000Z', jobId: 'job_a', projectId: 'docs', data: { tool: 'read', key: 'turn:1:step:1' } });
  });

  it('appending a key already logged returns the stored event and adds nothing', async () => {
    const first = await log.append(event('job_a', 'turn:1:started', { type: 'turn.started', data: { turn: 1 } }));
    await log.append(event('job_a', 'turn:1:step:1'));
    const again = await log.append(event('job_a', 'turn:1:started', { type: 'turn.started', data: { turn: 99 } }));
    assert.deepEqual(again, first);
    assert.equal((await log.after('job_a', 0)).length, 2);
  });

  it('concurrent appends of one job get distinct, gapless numbers; a retried key still one event', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `step:${i}`);
    await Promise.all([...keys, ...keys.slice(0, 5)].map((key) => log.append(event('job_c', key))));
    const all = await log.after('job_c', 0, 100);
    assert.deepEqual(
      all.map((e) => e.seq),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(new Set(all.map((e) => e.data.key)).size, 20);
  });

  it('reads after a sequence number in pages, the latest event, and forgets a job', async () => {
    for (let i = 1; i <= 5; i++) await log.append(event('job_d', `k${i}`, i === 5 ? { type: 'job.completed' } : {}));
    await log.append(event('job_e', 'k1'));
    assert.deepEqual((await log.after('job_d', 2, 2)).map((e) => e.seq), [3, 4]);
    assert.deepEqual((await log.after('job_d', 5)).map((e) => e.seq), []);
    assert.equal((await log.latest('job_d'))?.type, 'job.completed');
    assert.equal(await log.latest('job_none'), undefined);
    assert.equal(await log.forget('job_d'), 5);
    assert.deepEqual(await log.after('job_d', 0), []);
    assert.equal((await log.after('job_e', 0)).length, 1, 'another job keeps its events');
  });

  /**
   * A reader and a writer with wake-ups of their own, as the API and the worker are separate
   * processes: only the shared channel (the poll of the log, or Redis pub/sub) can wake the reader.
   */
  const wakeupVariants: Array<[string, () => Promise<JobWakeups>]> = [
    ['the poller', async () => pollingJobWakeups(database())],
    [
      'Redis pub/sub',
      async () => {
        // Redis as a process's platform opens it (which closes it at suite end).
        const { redis } = await testPlatform(await testConfig({ REDIS_URL: (await sharedRedis()).url }));
        assert.ok(redis.configured);
        const wakeups = redisJobWakeups(redis.client);
        onSuiteEnd(() => wakeups.close());
        return wakeups;
      },
    ],
  ];
  for (const [name, open] of wakeupVariants) {
    it(`a waiting reader is woken by another writer's append through ${name}, and times out when nothing comes`, async () => {
      const reader = createJobEventLog(database(), await open());
      const writer = createJobEventLog(database(), await open());
      await writer.append(event('job_w', 'k1'));
      assert.equal(await reader.waitForEvents('job_w', 0, { timeoutMs: 20_000 }), true, 'an event already there answers at once');
      assert.equal(await reader.waitForEvents('job_w', 1, { timeoutMs: 300 }), false, 'nothing new: the wait times out');
      // Longer than any test may take: only a wake-up ends this wait with true.
      const waiting = reader.waitForEvents('job_w', 1, { timeoutMs: 600_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writer.append(event('job_w', 'k2'));
      assert.equal(await waiting, true);
      const aborted = new AbortController();
      const cut = reader.waitForEvents('job_w', 2, { timeoutMs: 600_000, signal: aborted.signal });
      aborted.abort();
      assert.equal(await cut, false, 'an aborted wait ends');
    });

    it(`a new process's first waiters, forty at once while it still connects, are each woken through ${name}`, async () => {
      const writer = createJobEventLog(database(), await open());
      const reader = createJobEventLog(database(), await open());
      const jobs = Array.from({ length: 40 }, (_, i) => `job_many_${name.length}_${i}`);
      // Longer than any test may take: only a wake-up (or a look at the log) ends these waits with true.
      const waiting = jobs.map((jobId) => reader.waitForEvents(jobId, 0, { timeoutMs: 600_000 }));
      for (const jobId of jobs) await writer.append(event(jobId, 'k1'));
      assert.deepEqual(await Promise.all(waiting), jobs.map(() => true));
    });
  }
});
