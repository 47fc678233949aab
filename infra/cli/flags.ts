import { parseArgs } from 'node:util';
import type { Config } from '../../core/config.js';
import { UsageError, type CliContext, type DatabaseContext, type SchemaContext } from './context.js';

/** One flag of a command: how parseArgs reads it and how --help shows it. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  /** May be given more than once; the values are collected in order. */
  multiple?: boolean;
  /** The placeholder shown in help (`URL`). */
  value?: string;
  help: string;
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** What a command opens: the database unmigrated (migrate), the database migrated and its stores, or the whole platform (Temporal, Redis…). */
export type Opens = 'schema' | 'database' | 'platform';
export type ContextOf<O extends Opens> = O extends 'schema' ? SchemaContext : O extends 'database' ? DatabaseContext : CliContext;

/** A command defined once: its usage lines and flags parse the arguments and print its --help. */
export interface CommandSpec<O extends Opens = Opens> {
  summary: string;
  usage: string[];
  flags: Record<string, FlagSpec>;
  opens: O;
  /** Refuses a wrong call (throws UsageError) from the arguments and configuration alone, before anything is opened. */
  check(positionals: string[], values: FlagValues, config: Config): void;
  run(positionals: string[], values: FlagValues, ctx: ContextOf<O>): Promise<number>;
}

/** Runs with a context already open (tests); the CLI parses, checks, then opens what `spec.opens` names. */
export type DefinedCommand<O extends Opens = Opens> = ((args: string[], ctx: ContextOf<O>) => Promise<number>) & { spec: CommandSpec<O> };

export function helpOf(name: string, spec: CommandSpec): string {
  const lines = [spec.summary, 'usage:', ...spec.usage.map((u) => `  quire ${name}${u ? ` ${u}` : ''}`), 'flags:'];
  const shown = [
    ...Object.entries(spec.flags).map(([flag, f]) => [`--${flag}${f.value ? ` ${f.value}` : ''}${f.multiple ? ' (repeatable)' : ''}`, f.help] as const),
    ['--help', 'this help'] as const,
  ];
  const width = Math.max(...shown.map(([left]) => left.length));
  for (const [left, help] of shown) lines.push(`  ${left.padEnd(width)}  ${help}`);
  return lines.join('\n') + '\n';
}

/** Wants help: `--help` or `-h` among the arguments. */
export const wantsHelp = (args: string[]): boolean => args.includes('--help') || args.includes('-h');

/**
 * The most positional arguments a usage line takes when the call starts with `first`: its words
 * before the first flag, an optional `[NAME]` counting as one; undefined when no line's verb (`add`,
 * `pause|resume`) is `first`. A line that starts with a placeholder (`DOMAIN`) takes any first word.
 */
function positionalsOf(usage: string[], first: string | undefined): number | undefined {
  let most: number | undefined;
  for (const line of usage) {
    const words: string[] = [];
    for (const token of line.split(' ').filter(Boolean)) {
      if (token.startsWith('-') || token.startsWith('(') || token.startsWith('[-') || token === '[flags]') break;
      words.push(token);
    }
    const verb = words[0];
    const takesAny = verb === undefined || /^\[?[A-Z_/]+\]?$/.test(verb);
    if (takesAny || (first !== undefined && verb.split('|').includes(first))) most = Math.max(most ?? 0, words.length);
  }
  return most;
}

/**
 * The arguments as the command's flags read them; a flag it does not define throws, naming it, and
 * so does an argument beyond what its usage takes (exit 2), rather than being ignored.
 */
export function parseFlags(spec: Pick<CommandSpec, 'flags' | 'usage'>, args: string[]): { positionals: string[]; values: FlagValues } {
  const options = Object.fromEntries(Object.entries(spec.flags).map(([flag, f]) => [flag, { type: f.type, ...(f.multiple ? { multiple: true } : {}) }]));
  const { positionals, values } = parseArgs({ args, allowPositionals: true, strict: true, options });
  const most = positionalsOf(spec.usage, positionals[0]);
  if (most !== undefined && positionals.length > most) throw new UsageError(`unexpected argument '${positionals[most]}' (see --help)`);
  return { positionals, values: values as FlagValues };
}

export function defineCommand<O extends Opens>(spec: CommandSpec<O>): DefinedCommand<O> {
  const command = async (args: string[], ctx: ContextOf<O>): Promise<number> => {
    const { positionals, values } = parseFlags(spec, args);
    spec.check(positionals, values, ctx.config);
    return spec.run(positionals, values, ctx);
  };
  return Object.assign(command, { spec });
}

/**
 * Refuses ORG/ID where a command takes a project or domain by its id alone (ids are unique across
 * organisations), though `quire projects list` and `quire domains list` print ORG/ID.
 */
export function idAlone(what: 'PROJECT' | 'DOMAIN', arg: string): void {
  if (arg.includes('/')) throw new UsageError(`${what} is the ${what.toLowerCase()}'s id alone (such as '${arg.split('/').pop() ?? ''}'), not ORG/${what}`);
}

export const str = (values: FlagValues, flag: string): string | undefined => (typeof values[flag] === 'string' ? (values[flag] as string) : undefined);
export const list = (values: FlagValues, flag: string): string[] | undefined => (Array.isArray(values[flag]) ? (values[flag] as string[]) : undefined);
export const flag = (values: FlagValues, name: string): boolean | undefined => (typeof values[name] === 'boolean' ? (values[name] as boolean) : undefined);
