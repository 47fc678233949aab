import assert from 'node:assert/strict';
import { freshReads } from '../../../core/tenants/fresh-reads.js';

/** A read whose runs are numbered and finish only when the test says so. */
function controlledRead() {
  const runs: Array<() => void> = [];
  let started = 0;
  const read = () =>
    new Promise<number>((resolve) => {
      const n = ++started;
      runs.push(() => resolve(n));
    });
  return { read, finish: (i: number) => runs[i]?.(), started: () => started };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('fresh reads', () => {
  it('callers that arrive during a read share the next one, never the one already running', async () => {
    const c = controlledRead();
    const get = freshReads(c.read);
    const first = get();
    const waiting = [get(), get(), get()];
    assert.equal(c.started(), 1, 'no second read while the first runs');
    c.finish(0);
    assert.equal(await first, 1);
    await tick();
    assert.equal(c.started(), 2, 'one read for all three waiting callers');
    c.finish(1);
    assert.deepEqual(await Promise.all(waiting), [2, 2, 2]);
  });

  it('a failed read fails only its own callers', async () => {
    let calls = 0;
    const get = freshReads(async () => {
      calls++;
      if (calls === 1) throw new Error('EIO');
      return calls;
    });
    const failing = get();
    const next = get();
    await assert.rejects(failing, /EIO/);
    assert.equal(await next, 2);
    assert.equal(await get(), 3, 'an idle getter reads again');
  });
});
