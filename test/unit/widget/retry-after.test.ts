import assert from 'node:assert/strict';
import { retryWhen as retryWhenIn } from '../../../widget/retry-after.js';
import { ENGLISH } from '../../../widget/words.js';

const retryWhen = (retryAfter: string | null, now: Date) => retryWhenIn(retryAfter, ENGLISH, now);

/** 10 March 2026 at `hour`:00 on the reader's clock, whatever the test machine's time zone. */
const at = (hour: number) => new Date(2026, 2, 10, hour, 0, 0);

describe("widget: when a reader who asked too often may ask again", () => {
  it('counts seconds, then minutes, rounding up', () => {
    assert.equal(retryWhen('1', at(9)), 'in 1 second');
    assert.equal(retryWhen('16', at(9)), 'in 16 seconds');
    assert.equal(retryWhen('61', at(9)), 'in 2 minutes');
    assert.equal(retryWhen('3600', at(9)), 'in 60 minutes');
  });

  it('names the clock time past an hour, and the day when it is not today', () => {
    // 16418 s after 09:00 is 13:33:38: the hour and minute in the reader's own format, no seconds counted.
    const later = retryWhen('16418', at(9));
    assert.match(later, /^after (13|01)[:.]33/);
    assert.doesNotMatch(later, /16418|tomorrow/);
    assert.match(retryWhen('7200', at(23)), /^after (01|1)[:.]00.* tomorrow$/);
    assert.match(retryWhen(String(3 * 24 * 3600), at(9)), /^after .*13.* 09[:.]00/);
  });

  it('reads an HTTP date too, and says "later" when the header names no time', () => {
    assert.equal(retryWhen(new Date(at(9).getTime() + 30_000).toUTCString(), at(9)), 'in 30 seconds');
    assert.equal(retryWhen(null, at(9)), 'later');
    assert.equal(retryWhen('soon', at(9)), 'later');
  });
});
