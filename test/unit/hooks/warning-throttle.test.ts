import assert from 'node:assert/strict';
import { WarningThrottle } from '../../../api/hooks/warning-throttle.js';

describe("the push hook's warning throttle", () => {
  it('lets a warning about a key through once per interval, counted from when it was let through', () => {
    let now = 5_000;
    const throttle = new WarningThrottle({ intervalMs: 1_000, now: () => now });
    assert.equal(throttle.allow('acme-docs'), true);
    assert.equal(throttle.allow('acme-docs'), false);
    now += 999;
    assert.equal(throttle.allow('acme-docs'), false, 'still within the interval');
    now += 1;
    assert.equal(throttle.allow('acme-docs'), true, 'once the interval has passed');
    now += 500;
    assert.equal(throttle.allow('acme-docs'), false, 'the interval starts again from the last warning, not the first');
  });

  it('counts each key on its own', () => {
    const now = 0;
    const throttle = new WarningThrottle({ intervalMs: 1_000, now: () => now });
    assert.equal(throttle.allow('acme-docs'), true);
    assert.equal(throttle.allow('beta-docs'), true);
    assert.equal(throttle.allow('acme-docs'), false);
    assert.equal(throttle.allow('beta-docs'), false);
  });

  it('keeps only the keys warned of within the interval', () => {
    let now = 0;
    const throttle = new WarningThrottle({ intervalMs: 1_000, now: () => now });
    for (let i = 0; i < 100; i++) throttle.allow(`domain-${i}`);
    now += 1_000;
    throttle.allow('latest');
    assert.equal(throttle.size, 1, 'the older keys are forgotten');
    assert.equal(throttle.allow('domain-0'), true);
  });
});
