import type { ChildProcess } from 'node:child_process';

/** Teardowns registered by the suite's shared engines, run once after all tests. */
const teardowns: Array<() => Promise<void>> = [];

export function onSuiteEnd(fn: () => Promise<void>): void {
  teardowns.push(fn);
}

/**
 * Stops a child process after the suite (or script) unless it has ended by then, and waits for
 * it to exit. Registered at spawn, so its exit is seen however early it comes.
 */
export function stopAtSuiteEnd(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onSuiteEnd(async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  });
}

export async function runTeardowns(): Promise<void> {
  while (teardowns.length > 0) {
    const fn = teardowns.pop()!;
    await fn().catch((err: unknown) => console.error('teardown failed:', err));
  }
}

/** Runs a script's main (a bench, a recorder) over the suite's engines, tears them down, exits. */
export function runScript(main: () => Promise<void>): void {
  main()
    .then(runTeardowns)
    .then(() => process.exit(0))
    .catch(async (err: unknown) => {
      console.error(err);
      await runTeardowns();
      process.exit(1);
    });
}
