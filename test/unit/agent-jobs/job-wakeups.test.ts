import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { waitForEvents, type JobWakeups } from '../../../core/jobs/index.js';

/** Wake-ups that wake at once and record how each wait ended. */
function instantWakeups(): JobWakeups & { aborted: number } {
  const wakeups = {
    aborted: 0,
    notify: async () => undefined,
    wait: async (_jobId: string, _afterSeq: number, options: { signal?: AbortSignal }) => {
      if (options.signal?.aborted) wakeups.aborted += 1;
    },
    close: async () => undefined,
  };
  return wakeups;
}

describe('waiting for a job event', () => {
  it('leaves nothing behind on the caller\'s signal, round after round', async () => {
    // An event stream waits round after round (each heartbeat, each wake-up) under one signal that lives as long as the stream.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const stream = new AbortController();
    let reads = 0;
    const log = { after: async () => (++reads % 2 === 0 ? [{ seq: 1 }] : []) } as never;
    const rounds = async (n: number) => {
      for (let i = 0; i < n; i++) assert.equal(await waitForEvents(log, instantWakeups(), 'job_1', 0, { timeoutMs: 60_000, signal: stream.signal }), true);
    };
    await rounds(2_000); // warm-up
    gc();
    const before = process.memoryUsage().heapUsed;
    const n = 40_000;
    await rounds(n);
    gc();
    const perRound = (process.memoryUsage().heapUsed - before) / n;
    // `AbortSignal.any` kept about 100 bytes per round on the stream's signal.
    assert.ok(perRound < 25, `the stream's signal grew by ${perRound.toFixed(1)} bytes per round`);
  });

  it('stops a round when the caller\'s signal is aborted, before or during it', async () => {
    const log = { after: async () => [] } as never;
    const before = new AbortController();
    before.abort();
    assert.equal(await waitForEvents(log, instantWakeups(), 'job_1', 0, { timeoutMs: 60_000, signal: before.signal }), false);
    const during = new AbortController();
    let ended = false;
    const wakeups: JobWakeups = {
      notify: async () => undefined,
      wait: (_j, _s, options) =>
        new Promise<void>((resolve) => {
          options.signal?.addEventListener('abort', () => {
            ended = true;
            resolve();
          });
        }),
      close: async () => undefined,
    };
    const waiting = waitForEvents(log, wakeups, 'job_1', 0, { timeoutMs: 60_000, signal: during.signal });
    await new Promise((resolve) => setImmediate(resolve));
    during.abort();
    // The aborted round ends its wait; the next round sees the signal and stops without waiting again.
    assert.equal(await waiting, false);
    assert.equal(ended, true);
  });
});
