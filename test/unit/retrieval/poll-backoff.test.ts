import assert from 'node:assert/strict';
import { pollBackoff, polledRunMemo, pollRetryDue } from '../../../core/index-runs/index.js';

/** How long a poll leaves a head whose index runs keep failing: doubling from the interval, at most a day. */
describe('poll backoff', () => {
  const start = new Date('2030-01-01T00:00:00.000Z');
  const minutesAfter = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

  it('waits twice the interval after the first failure, doubling with each one, at most 24 hours', () => {
    const waits = [1, 2, 3, 4, 5, 9, 40].map((attempt) => (pollBackoff({ polledHead: 'abc', attempt }, start, 10).retryAt.getTime() - start.getTime()) / 60_000);
    assert.deepEqual(waits, [20, 40, 80, 160, 320, 1440, 1440]);
    assert.deepEqual(pollBackoff({ polledHead: 'abc', attempt: 2 }, start, 10), { head: 'abc', failures: 2, retryAt: minutesAfter(40) });
  });

  it('lets the poll due about the retry time try again, not the one after it', () => {
    const backoff = pollBackoff({ polledHead: 'abc', attempt: 1 }, start, 10);
    // The failed run started a moment after its poll: the poll two intervals on fires a little before retryAt.
    assert.equal(pollRetryDue(backoff, 10, minutesAfter(10)), false);
    assert.equal(pollRetryDue(backoff, 10, minutesAfter(19.9)), true);
    assert.equal(pollRetryDue(backoff, 10, minutesAfter(30)), true);
  });

  it('reads only a memo a poll wrote', () => {
    assert.deepEqual(polledRunMemo({ polledHead: 'abc', attempt: 3 }), { polledHead: 'abc', attempt: 3 });
    assert.deepEqual(polledRunMemo({ polledHead: 'abc' }), { polledHead: 'abc', attempt: 1 });
    assert.equal(polledRunMemo(undefined), undefined);
    assert.equal(polledRunMemo({ attempt: 2 }), undefined);
    assert.equal(polledRunMemo({ polledHead: 7 }), undefined);
  });
});
