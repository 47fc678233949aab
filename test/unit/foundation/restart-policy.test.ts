import assert from 'node:assert/strict';
import { MAX_FAILED_STARTS, RestartPolicy } from '../../../infra/supervisor.js';

const crashed = (readyAt: number) => ({ wasReady: true, readyAt, reason: 'exited unexpectedly (SIGKILL)' });
const failedStart = { wasReady: false, reason: 'exited before it was ready (code 1)' };

describe('RestartPolicy of the start command', () => {
  it('doubles the delay while a child keeps failing, up to 30 s, and starts over after a minute of running', () => {
    const policy = new RestartPolicy();
    const delays = [0, 1, 2, 3, 4, 5].map((i) => policy.next(crashed(i * 1_000), i * 1_000 + 500));
    assert.deepEqual(delays, [1, 2, 4, 8, 16, 30].map((s) => ({ delayMs: s * 1_000 })));
    assert.deepEqual(policy.next(crashed(100_000), 100_000 + 60_000), { delayMs: 1_000 });
  });

  it(`gives up on ${MAX_FAILED_STARTS} starts in a row that never became ready; a start that did resets the count`, () => {
    const policy = new RestartPolicy();
    for (let i = 1; i < MAX_FAILED_STARTS; i++) assert.ok('delayMs' in policy.next(failedStart, i));
    assert.ok('delayMs' in policy.next(crashed(10), 20), 'a run that became ready');
    for (let i = 1; i < MAX_FAILED_STARTS; i++) assert.ok('delayMs' in policy.next(failedStart, 100 + i));
    assert.deepEqual(policy.next(failedStart, 200), { giveUp: `it failed to start ${MAX_FAILED_STARTS} times in a row` });
  });

  it('gives up on a child that ends 10 times within 10 minutes, however long each run lasted', () => {
    const policy = new RestartPolicy();
    const minute = 60_000;
    const end = (minutes: number) => policy.next(crashed((minutes - 1) * minute), minutes * minute);
    // Nine ends, one every two minutes: never ten within ten minutes.
    for (let m = 1; m <= 17; m += 2) assert.ok('delayMs' in end(m), `end at minute ${m}`);
    // Then one a minute, each after a minute of running: the tenth within ten minutes gives up.
    for (let m = 30; m <= 38; m++) assert.ok('delayMs' in end(m), `end at minute ${m}`);
    assert.deepEqual(end(39), { giveUp: 'it ended 10 times within 10 minutes' });
  });
});
