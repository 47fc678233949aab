import { ConfigError } from './config.js';
import { scrubSecrets } from './logger.js';

/**
 * Runs a process entry point; any start-up failure ends the process with a
 * non-zero exit and one readable reason on stderr (never swallowed).
 */
export function runMain(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      const message = err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err);
      process.stderr.write(`${name}: error: ${scrubSecrets(message)}\n`);
      process.exit(1);
    },
  );
}
