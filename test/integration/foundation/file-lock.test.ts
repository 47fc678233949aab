/** The cross-process lock of the embedded index's snapshots, with real processes. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withFileLock } from '../../../core/store/file-lock.js';
import { tempDir } from '../../support/services.js';

const LOCK = path.resolve(__dirname, '../../../core/store/file-lock.ts');

/** The state letter of a process in /proc (T stopped, Z exited), or 'gone'. */
function stateOf(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return 'gone';
  }
}

describe('withFileLock across processes', function () {
  it('waits for a holder that is stopped, and takes over the moment it dies', async function () {
    const file = path.join(await tempDir(), 'index', 'docs.json');
    const holder = spawn(
      process.execPath,
      ['--require', 'tsx/cjs', '-e', `require(${JSON.stringify(LOCK)}).withFileLock(${JSON.stringify(file)}, () => { console.log('held'); return new Promise(() => setInterval(() => {}, 60_000)); })`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // The holder keeps its event loop busy with a timer: a bare pending promise would let it exit (releasing the
    // lock) before the SIGSTOP below lands, and the test would pass or fail by timing.
    await new Promise<void>((resolve) => holder.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve()));
    // Stopped far past any stale time a lock file would use: the lock stays its own.
    holder.kill('SIGSTOP');
    for (let i = 0; i < 200 && stateOf(holder.pid!) !== 'T'; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(stateOf(holder.pid!), 'T', 'the holder is stopped, still holding the lock');
    const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
    // The kernel releases the lock when the holder's files close, as it dies: by then it is a zombie or gone.
    let taken = false;
    const mine = withFileLock(file, async () => ((taken = true), stateOf(holder.pid!)));
    // Past the 2 s stale time of the lock files this replaced (the stall is the stimulus, not a measurement).
    await new Promise((r) => setTimeout(r, 2_500));
    assert.equal(taken, false, 'a stopped holder keeps its lock');
    holder.kill('SIGKILL');
    assert.match(await mine, /^(Z|gone)$/, 'the lock was taken only after the holder died');
    await exited;
  });

  it('runs the callers of one process one at a time', async function () {
    const file = path.join(await tempDir(), 'docs.json');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(file, async () => {
          most = Math.max(most, ++inside);
          await new Promise((r) => setImmediate(r));
          inside--;
        }),
      ),
    );
    assert.equal(most, 1);
  });
});
