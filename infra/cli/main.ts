import { loadConfig } from '../../core/config.js';
import { createLogger, scrubSecrets } from '../../core/logger.js';
import { openPlatform, type Platform } from '../../core/platform/index.js';
import { createMetrics } from '../../core/telemetry/index.js';
import { UnknownTenantError, TenantConflictError, TenantExistsError } from '../../core/tenants/index.js';
import { UsageError } from './context.js';
import { helpOf, wantsHelp, type DefinedCommand } from './flags.js';
import { domains, keys, orgs, projects } from './tenant-commands.js';
import { indexCommand } from './index-command.js';
import { analyticsCommand } from './analytics-command.js';
import { automations } from './automations-command.js';
import { webhooks } from './webhook-commands.js';
import { migrateCommand } from './migrate-command.js';

/** Every `quire` command, each defined once (usage, flags, run): its --help and its parser come from that definition. */
export const COMMANDS: Record<string, DefinedCommand> = { migrate: migrateCommand, orgs, projects, domains, keys, index: indexCommand, automations, webhooks, analytics: analyticsCommand };

/** `quire --help`: every command's usage lines and flags, from their definitions. */
function usage(): string {
  const lines = ['usage: quire <command>  (quire <command> --help explains each flag)'];
  for (const [name, command] of Object.entries(COMMANDS)) {
    const flags = Object.entries(command.spec.flags).map(([flag, f]) => `--${flag}${f.value ? ` ${f.value}` : ''}`);
    for (const u of command.spec.usage) lines.push(`  ${name}${u ? ` ${u}` : ''}`);
    if (flags.length > 0) lines.push(`      flags: ${flags.join(', ')}`);
  }
  lines.push('The database is QUIRE_DATABASE_URL (PostgreSQL) when set, else quire.db in the data directory (QUIRE_DATA_DIR, default .quire).');
  return lines.join('\n');
}

/** Runs one CLI invocation and returns the exit code; errors are one line on stderr. */
export async function cli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    const help = name === 'help' || name === '--help' || name === '-h';
    (help ? process.stdout : process.stderr).write(`${name && !help ? `quire: unknown command '${name}'\n` : ''}${usage()}\n`);
    return help ? 0 : 2;
  }
  if (wantsHelp(args)) {
    process.stdout.write(helpOf(name!, command.spec));
    return 0;
  }
  let platform: Platform | undefined;
  try {
    const config = loadConfig(env);
    // The CLI serves no metrics: what it counts (a refused automation trigger) goes with its registry.
    platform = await openPlatform(config, { logger: createLogger('silent', 'quire-cli'), metrics: createMetrics({ orgLabel: false }), env, temporal: 'client' });
    return await command(args, { ...platform, out: process.stdout });
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`quire ${name}: ${(err as Error).message}\n`);
      return 2;
    }
    let message = err instanceof Error ? err.message : String(err);
    if (err instanceof UnknownTenantError && err.kind === 'organisation')
      message += `; create it first with: quire orgs add ${err.id}`;
    if (err instanceof TenantExistsError) message += `; change it with: quire ${err.kind}s update ORG/${err.id} [flags]`;
    if (!(err instanceof UnknownTenantError || err instanceof TenantConflictError) && !(err instanceof Error)) message = 'unexpected error';
    process.stderr.write(`quire ${name}: error: ${scrubSecrets(message)}\n`);
    return 1;
  } finally {
    await platform?.close();
  }
}

if (require.main === module) {
  void cli(process.argv.slice(2)).then((code) => process.exit(code));
}
