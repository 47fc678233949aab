import { loadConfig, type Config } from '../../core/config.js';
import { DatabaseUnavailableError, describeTarget, openDatabase } from '../../core/db/index.js';
import { classifyTemporal } from '../../core/engine-errors.js';
import { rootReason, UnavailableError } from '../../core/errors.js';
import { createLogger, scrubSecrets } from '../../core/logger.js';
import { openDatabasePlatform, openPlatform } from '../../core/platform/index.js';
import { createMetrics } from '../../core/telemetry/index.js';
import { temporalTarget } from '../../core/temporal/connection.js';
import { UnknownTenantError, TenantConflictError } from '../../core/tenants/index.js';
import { UsageError } from './context.js';
import { helpOf, parseFlags, wantsHelp, type DefinedCommand } from './flags.js';
import { domains, domainsInTemporal, keys, orgDelete, orgs, projects } from './tenant-commands.js';
import { indexCommand } from './index-command.js';
import { analyticsCommand } from './analytics-command.js';
import { automations } from './automations-command.js';
import { webhooks } from './webhook-commands.js';
import { migrateCommand } from './migrate-command.js';

/** Every `quire` command, each defined once (usage, flags, run): its --help and its parser come from that definition. */
export const COMMANDS: Record<string, DefinedCommand<'schema'> | DefinedCommand<'database'> | DefinedCommand<'platform'>> = { migrate: migrateCommand, orgs, projects, domains, keys, index: indexCommand, automations, webhooks, analytics: analyticsCommand };

/** Verbs that open more than the rest of their command (`orgs delete` needs Temporal), defined as commands of their own. */
const VERBS: Record<string, Record<string, DefinedCommand<'platform'>>> = { orgs: { delete: orgDelete } };

/**
 * Flags that open more than the rest of their command: `domains … --poll-minutes` sets a schedule in
 * Temporal, and `domains update … --language` may start an index run.
 */
const FLAGS: Record<string, { flags: Array<{ flag: string; verb?: string }>; command: DefinedCommand<'platform'> }> = {
  domains: { flags: [{ flag: '--poll-minutes' }, { flag: '--language', verb: 'update' }], command: domainsInTemporal },
};

function withFlag(name: string, args: string[]): DefinedCommand<'platform'> | undefined {
  const opening = FLAGS[name];
  const given = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  return opening?.flags.some(({ flag, verb }) => (verb === undefined || args[0] === verb) && given(flag)) ? opening.command : undefined;
}

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
  const command = name ? (VERBS[name]?.[args[0] ?? ''] ?? withFlag(name, args) ?? COMMANDS[name]) : undefined;
  if (!command) {
    const help = name === 'help' || name === '--help' || name === '-h';
    (help ? process.stdout : process.stderr).write(`${name && !help ? `quire: unknown command '${name}'\n` : ''}${usage()}\n`);
    return help ? 0 : 2;
  }
  if (wantsHelp(args)) {
    process.stdout.write(helpOf(name!, command.spec));
    return 0;
  }
  let config: Config | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    // Flags, configuration and arguments are checked before anything is opened.
    const { positionals, values } = parseFlags(command.spec, args);
    config = loadConfig(env);
    const spec = command.spec;
    spec.check(positionals, values, config);
    // The CLI serves no metrics: what it counts (a refused automation trigger) goes with its registry.
    const metrics = createMetrics({ orgLabel: false });
    const out = process.stdout;
    if (spec.opens === 'schema') {
      const database = openDatabase(config.database);
      close = () => database.close();
      return await spec.run(positionals, values, { config, database, out });
    }
    if (spec.opens === 'database') {
      const unannounced = (reason: string) => void process.stderr.write(`quire ${name}: warning: ${scrubSecrets(reason)}\n`);
      const opened = await openDatabasePlatform(config, { metrics, logger: createLogger('silent', 'quire-cli'), unannounced });
      close = opened.close;
      return await spec.run(positionals, values, { ...opened, out });
    }
    const platform = await openPlatform(config, { logger: createLogger('silent', 'quire-cli'), metrics, env, temporal: 'client' });
    close = platform.close;
    // A command that calls Temporal first learns that it answers, within a bound: an address that
    // takes the connection and never answers would otherwise hold the command for ever.
    await temporalAnswers(platform.probes.temporal, config);
    return await spec.run(positionals, values, { ...platform, out });
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`quire ${name}: ${(err as Error).message}\n`);
      return 2;
    }
    let message = err instanceof Error ? err.message : String(err);
    if (err instanceof DatabaseUnavailableError && config) message = `cannot reach the database at ${describeTarget(config.database)}: ${rootReason(err)}`;
    else if (config && classifyTemporal(err)) message = temporalFailure(err, config);
    if (err instanceof UnknownTenantError && err.kind === 'organisation')
      message += `; create it first with: quire orgs add ${err.id}`;
    if (!(err instanceof UnknownTenantError || err instanceof TenantConflictError) && !(err instanceof Error)) message = 'unexpected error';
    process.stderr.write(`quire ${name}: error: ${scrubSecrets(message)}\n`);
    return 1;
  } finally {
    await close?.();
  }
}

/** How long a command waits for Temporal to answer its first call. */
const TEMPORAL_ANSWER_MS = 10_000;

/** One line for a Temporal that could not be reached or refused the call: where, and which variable says so. */
function temporalFailure(err: unknown, config: Config): string {
  const classified = classifyTemporal(err);
  const how = classified && !(classified instanceof UnavailableError) ? 'refused by Temporal at' : 'cannot reach Temporal at';
  return `${how} ${temporalTarget(config).address} (TEMPORAL_ADDRESS, namespace ${config.temporal.namespace}): ${rootReason(err)}`;
}

async function temporalAnswers(probe: (() => Promise<void>) | undefined, config: Config): Promise<void> {
  if (!probe) return;
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TEMPORAL_ANSWER_MS / 1000} s`)), TEMPORAL_ANSWER_MS);
  });
  try {
    await Promise.race([probe(), silent]);
  } catch (err) {
    throw new Error(temporalFailure(err, config), { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

if (require.main === module) {
  void cli(process.argv.slice(2)).then((code) => process.exit(code));
}
