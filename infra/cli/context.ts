import type { Database } from '../../core/db/index.js';
import type { DatabasePlatform, Platform } from '../../core/platform/index.js';

/** What `quire migrate` uses: the database as it finds it, not yet migrated, so that it can say what it applies. */
export type SchemaContext = Pick<DatabasePlatform, 'config'> & { database: Database; out: NodeJS.WritableStream };

/** What a command that needs only the database may use (see openDatabasePlatform), and where it prints. */
export type DatabaseContext = Pick<DatabasePlatform, 'config' | 'database' | 'tenants' | 'webhooks' | 'automations' | 'analyticsStore' | 'jobs'> & {
  out: NodeJS.WritableStream;
};

/** What a command that also starts workflows or spends rate limits may use: the CLI process's platform. */
export type CliContext = DatabaseContext & Pick<Platform, 'limiter' | 'temporal' | 'docIndex'>;

/** A mistake in how the command was called: usage goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Refuses an id no project has (exit 1): listing a missing project's webhooks or automations would
 * print nothing and succeed, as for a project that has none.
 */
export async function knownProject(ctx: Pick<DatabaseContext, 'tenants'>, projectId: string): Promise<void> {
  if (!(await ctx.tenants.getProject(projectId)))
    throw new Error(`unknown project '${projectId}'; quire projects list names every project, quire projects add ORG/PROJECT --repo … creates one`);
}
