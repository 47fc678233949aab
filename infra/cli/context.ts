import type { Platform } from '../../core/platform/index.js';

/** What a command may use: the CLI process's platform (see core/platform), and where it prints. */
export type CliContext = Pick<Platform, 'config' | 'database' | 'tenants' | 'webhooks' | 'automations' | 'analyticsStore' | 'jobs' | 'limiter' | 'temporal'> & {
  out: NodeJS.WritableStream;
};

/** A mistake in how the command was called: usage goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Command = (args: string[], ctx: CliContext) => Promise<number>;
