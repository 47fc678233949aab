import type { Redis } from 'ioredis';
import type { Config } from '../../core/config.js';
import type { Database } from '../../core/db/index.js';
import type { TenantStore } from '../../core/tenants/index.js';

export interface CliContext {
  config: Config;
  /** The system of record, migrated. */
  database: Database;
  tenants: TenantStore;
  /** The deployment's Redis, for stores that live beside the tenants (webhooks); undefined: the data directory. */
  redis?: Redis;
  out: NodeJS.WritableStream;
}

/** A mistake in how the command was called: usage goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Command = (args: string[], ctx: CliContext) => Promise<number>;
