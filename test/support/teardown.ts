/** Teardowns registered by the suite's shared engines, run once after all tests. */
const teardowns: Array<() => Promise<void>> = [];

export function onSuiteEnd(fn: () => Promise<void>): void {
  teardowns.push(fn);
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
