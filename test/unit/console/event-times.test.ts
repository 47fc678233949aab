import assert from 'node:assert/strict';
import { eventTimes } from '../../../console/data/event-times.js';

describe("console: when a job's events happened", () => {
  it('gives each event its time of day to the second, with the date on the first and where the day changes', () => {
    assert.deepEqual(eventTimes(['2026-11-26T09:15:02.120Z', '2026-11-26T09:15:40Z', '2026-11-27T00:00:05Z', '2026-11-27T08:01:00Z']), [
      '26 Nov 2026, 09:15:02 UTC',
      '09:15:40 UTC',
      '27 Nov 2026, 00:00:05 UTC',
      '08:01:00 UTC',
    ]);
  });

  it('shows a time it cannot read as it came', () => {
    assert.deepEqual(eventTimes(['soon']), ['soon']);
  });
});
