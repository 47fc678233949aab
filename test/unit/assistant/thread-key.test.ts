import assert from 'node:assert/strict';
import { newThreadKey, threadKeyMatches } from '../../../core/threads/index.js';

describe('thread keys', () => {
  it('are all different across many draws of the random source, and each opens only its own hash', () => {
    const keys = Array.from({ length: 1000 }, () => newThreadKey());
    assert.equal(new Set(keys.map((k) => k.key)).size, keys.length);
    for (const { key } of keys) assert.match(key, /^tk_[A-Za-z0-9_-]{43}$/);
    const [a, b] = keys;
    assert.ok(a && b);
    assert.ok(threadKeyMatches(a.hash, a.key));
    assert.ok(!threadKeyMatches(a.hash, b.key));
    assert.ok(!threadKeyMatches(undefined, a.key));
  });
});
