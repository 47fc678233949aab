import { ConfigError } from './config.js';
import { scrubSecrets } from './logger.js';

/**
 * Runs a process entry point; any start-up failure ends the process with a
 * non-zero exit and one readable reason on stderr (never swallowed).
 */
export function runMain(name: string, main: () => Promise<void>): void {
  stopWithParent(name);
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      const message = err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err);
      process.stderr.write(`${name}: error: ${scrubSecrets(message)}\n`);
      process.exit(1);
    },
  );
}

/** How long a process whose supervisor died may take to stop on its own before it is ended. */
const ORPHAN_GRACE_MS = 5_000;

/**
 * A process the start command runs has an IPC channel to it; the channel closes when the start
 * command ends, however it ends (SIGKILL included). The process then stops as on SIGTERM, and
 * within a few seconds at most, so it never lives on as an orphan.
 */
function stopWithParent(name: string): void {
  if (!process.send) return;
  process.once('disconnect', () => {
    process.stderr.write(`${name}: the start command is gone; stopping\n`);
    setTimeout(() => process.exit(1), ORPHAN_GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  });
}

/** Tells the start command, when it runs this process, that the process now serves (infra/supervised-process.ts). */
export function announceReady(): void {
  if (process.send && process.connected) process.send('ready');
}
