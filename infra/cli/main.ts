import { loadConfig } from '../../core/config.js';
import { openMigratedDatabase, type Database } from '../../core/db/index.js';
import { connectRedis } from '../../core/redis.js';
import { scrubSecrets } from '../../core/logger.js';
import { createTenantStore, UnknownTenantError, TenantConflictError } from '../../core/tenants/index.js';
import { cliStores, UsageError, type Command } from './context.js';
import { domains, keys, orgs, projects } from './tenant-commands.js';
import { indexCommand } from './index-command.js';
import { analyticsCommand } from './analytics-command.js';
import { automations } from './automations-command.js';
import { webhooks } from './webhook-commands.js';
import { migrateCommand } from './migrate-command.js';

/** Every `quire` command; each feature registers its own line. */
const COMMANDS: Record<string, Command> = { migrate: migrateCommand, orgs, projects, domains, keys, index: indexCommand, automations, webhooks, analytics: analyticsCommand };

const USAGE = `usage: quire <command>
  migrate   (brings the database schema up to date; every process also does at start)
  orgs add ORG | orgs list
  projects add ORG/PROJECT --repo URL_OR_PATH [--branch B] [--docs-path P] [--forge local|github] [--token-env VAR] [--models a,b]
  domains add ORG/DOMAIN --source URL_OR_PATH [--branch B] [--base-url URL] [--docs-path P] [--include-hidden]
  keys create --org ORG --kind admin|assistant | keys list [--org ORG] | keys revoke KEY_ID
  index DOMAIN
  automations add PROJECT (--cron EXPR [--timezone ZONE] | --every 15m) --prompt TEXT [--model M] [--draft] [--paused] [--note TEXT]
  automations list PROJECT | automations pause|resume|trigger|delete PROJECT ID
  webhooks add PROJECT URL [--event TYPE]… [--secret-env VAR] | webhooks list [PROJECT] | webhooks remove PROJECT WEBHOOK_ID | webhooks deliveries PROJECT [--limit N]
  analytics DOMAIN [--since 7d]   (answered vs unanswered, top categories, top gaps, feedback ratio)
The database is QUIRE_DATABASE_URL (PostgreSQL) when set, else quire.db in the data directory (QUIRE_DATA_DIR, default .quire).`;

/** Runs one CLI invocation and returns the exit code; errors are one line on stderr. */
export async function cli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`${name && name !== 'help' && name !== '--help' ? `quire: unknown command '${name}'\n` : ''}${USAGE}\n`);
    return name === 'help' || name === '--help' ? 0 : 2;
  }
  let redis: Awaited<ReturnType<typeof connectRedis>> | undefined;
  let database: Database | undefined;
  try {
    const config = loadConfig(env);
    database = await openMigratedDatabase(config.database);
    redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
    const tenants = createTenantStore(database);
    return await command(args, { config, database, tenants, ...cliStores(database), redis, out: process.stdout });
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`quire ${name}: ${(err as Error).message}\n`);
      return 2;
    }
    let message = err instanceof Error ? err.message : String(err);
    if (err instanceof UnknownTenantError && err.kind === 'organisation')
      message += `; create it first with: quire orgs add ${err.id}`;
    if (!(err instanceof UnknownTenantError || err instanceof TenantConflictError) && !(err instanceof Error)) message = 'unexpected error';
    process.stderr.write(`quire ${name}: error: ${scrubSecrets(message)}\n`);
    return 1;
  } finally {
    redis?.disconnect();
    await database?.close();
  }
}

if (require.main === module) {
  void cli(process.argv.slice(2)).then((code) => process.exit(code));
}
