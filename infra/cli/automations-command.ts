import * as v from 'valibot';
import {
  automationInputSchema,
  createAutomation,
  deleteAutomation,
  listAutomations,
  setAutomationPaused,
  startAutomationJob,
  type AutomationDeps,
  type AutomationView,
} from '../../core/automations/index.js';
import { jobModel } from '../../core/jobs/index.js';
import { knownProject, UsageError, type CliContext } from './context.js';
import { defineCommand, flag, idAlone, str, type FlagValues } from './flags.js';

const USAGE = `quire automations add PROJECT (--cron "0 9 * * MON" [--timezone ZONE] | --every 15m) --prompt TEXT [--model M] [--draft] [--paused] [--note TEXT]
  | quire automations list PROJECT | quire automations pause|resume|trigger|delete PROJECT ID`;

/** One line per automation: id, when, paused or the next run, the prompt's first line. */
function describeLine(a: AutomationView): string {
  const when = a.cron ? `cron ${a.cron}${a.timezone !== 'UTC' ? ` ${a.timezone}` : ''}` : `every ${a.interval ?? ''}`;
  const state = a.paused ? `paused${a.note ? ` (${a.note})` : ''}` : `next ${a.nextRunTimes[0] ?? '-'}`;
  const last = a.lastRun ? (a.lastRun.skipped ? `last skipped: ${a.lastRun.skipped.code}` : `last job ${a.lastRun.jobId ?? '-'}`) : 'never run';
  const prompt = a.prompt.split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 60) ?? '';
  return [a.id, when, state, last, prompt].join('\t');
}

/** The automation `add` asks for, validated as the API validates it, or a UsageError: needs nothing open. */
function addInput(positionals: string[], flags: FlagValues, minIntervalSeconds: number) {
  const values = {
    cron: str(flags, 'cron'),
    timezone: str(flags, 'timezone'),
    every: str(flags, 'every'),
    prompt: str(flags, 'prompt'),
    model: str(flags, 'model'),
    draft: flag(flags, 'draft') ?? false,
    paused: flag(flags, 'paused') ?? false,
    note: str(flags, 'note'),
  };
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'\n${USAGE}`);
  const parsed = v.safeParse(automationInputSchema(minIntervalSeconds), {
    prompt: values.prompt,
    ...(values.cron !== undefined ? { cron: values.cron } : {}),
    ...(values.timezone !== undefined ? { timezone: values.timezone } : {}),
    ...(values.every !== undefined ? { interval: values.every } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.note !== undefined ? { note: values.note } : {}),
    asDraft: values.draft,
    paused: values.paused,
  });
  if (!parsed.success) {
    // The schema says `interval` (the API's field); the flag is --every.
    const flag = (key: string) => `--${key === 'interval' ? 'every' : key === 'asDraft' ? 'draft' : key}`;
    throw new UsageError(parsed.issues.map((i) => `${flag(String(i.path?.[0]?.key ?? 'prompt'))}: ${i.message}`).join('; '));
  }
  return parsed.output;
}

async function add(ctx: CliContext, deps: AutomationDeps, projectId: string, positionals: string[], flags: FlagValues): Promise<number> {
  const input = addInput(positionals, flags, ctx.config.automations.minIntervalSeconds);
  const project = await ctx.tenants.getProject(projectId);
  if (!project) throw new Error(`unknown project '${projectId}'`);
  const model = jobModel(project, ctx.config, input.model);
  if ('refused' in model) throw new UsageError(`--model ${model.refused}`);
  const created = await createAutomation(deps, project.id, input);
  ctx.out.write(`automation ${created.id} ready (schedule ${created.scheduleId})\n`);
  return 0;
}

/** `quire automations …`: the API's automation endpoints for an operator, on the same stores and schedules. */
export const automations = defineCommand({
  summary: 'Prompts run as agent jobs on a schedule, as the API\'s automation endpoints manage them.',
  usage: ['add PROJECT (--cron EXPR [--timezone ZONE] | --every 15m) --prompt TEXT [--model M] [--draft] [--paused] [--note TEXT]', 'list PROJECT', 'pause|resume|trigger|delete PROJECT ID'],
  flags: {
    cron: { type: 'string', value: 'EXPR', help: 'add: a cron schedule ("0 9 * * MON")' },
    timezone: { type: 'string', value: 'ZONE', help: 'add: the time zone of --cron (default UTC)' },
    every: { type: 'string', value: 'INTERVAL', help: 'add: a fixed interval instead of --cron (15m, 2h, 1d)' },
    prompt: { type: 'string', value: 'TEXT', help: 'add: what each job is asked' },
    model: { type: 'string', value: 'M', help: 'add: one of the project\'s allowed models' },
    draft: { type: 'boolean', help: 'add: open draft pull requests' },
    paused: { type: 'boolean', help: 'add: created paused' },
    note: { type: 'string', value: 'TEXT', help: 'add: a note shown with the automation' },
  },
  opens: 'platform',
  check(positionals, values, config) {
    checkCall(positionals, values);
    if (positionals[0] === 'add') addInput(positionals.slice(2), values, config.automations.minIntervalSeconds);
  },
  run: (positionals, values, ctx) => runAutomations(positionals, values, ctx),
});

/** Refuses a call of the wrong shape (UsageError): needs nothing open. */
function checkCall([verb, projectId, id, ...rest]: string[], flags: FlagValues): void {
  if (!verb || !projectId || (verb !== 'add' && verb !== 'list' && (!id || rest.length > 0))) throw new UsageError(USAGE);
  if (verb !== 'add' && Object.values(flags).some((v) => v !== undefined)) throw new UsageError(`only automations add takes flags\n${USAGE}`);
  if (verb === 'list' && id) throw new UsageError(USAGE);
  if (!['add', 'list', 'pause', 'resume', 'trigger', 'delete'].includes(verb)) throw new UsageError(USAGE);
  idAlone('PROJECT', projectId);
}

async function runAutomations(args: string[], flags: FlagValues, ctx: CliContext): Promise<number> {
  const [verb, projectId = '', id] = args;
  const deps: AutomationDeps = {
    temporal: ctx.temporal,
    automations: ctx.automations,
    jobs: ctx.jobs,
    tenants: ctx.tenants,
    // With Redis the CLI spends the project's shared allowance; without it, this process's own counts.
    limiter: ctx.limiter,
    config: ctx.config,
  };
  const missing = () => new Error(`unknown automation '${id ?? ''}' in project '${projectId}'`);
  switch (verb) {
    case 'add':
      return await add(ctx, deps, projectId, args.slice(2), flags);
    case 'list':
      await knownProject(ctx, projectId);
      for (const a of await listAutomations(deps, projectId)) ctx.out.write(describeLine(a) + '\n');
      return 0;
    case 'pause':
    case 'resume': {
      const view = await setAutomationPaused(deps, projectId, id ?? '', verb === 'pause');
      if (!view) throw missing();
      ctx.out.write(`automation ${view.id} ${view.paused ? 'paused' : 'resumed'}\n`);
      return 0;
    }
    case 'trigger': {
      const start = await startAutomationJob(deps, { projectId, automationId: id ?? '' });
      if (start.kind === 'skipped') throw new Error(`not started (${start.code}): ${start.reason}`);
      ctx.out.write(`started job ${start.job.id}\n`);
      return 0;
    }
    case 'delete':
      if (!(await deleteAutomation(deps, projectId, id ?? ''))) throw missing();
      ctx.out.write(`automation ${id ?? ''} deleted\n`);
      return 0;
    default:
      throw new UsageError(USAGE);
  }
}
