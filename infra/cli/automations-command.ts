import { parseArgs } from 'node:util';
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
import { UsageError, type CliContext, type Command } from './context.js';

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

async function add(ctx: CliContext, deps: AutomationDeps, projectId: string, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cron: { type: 'string' },
      timezone: { type: 'string' },
      every: { type: 'string' },
      prompt: { type: 'string' },
      model: { type: 'string' },
      draft: { type: 'boolean', default: false },
      paused: { type: 'boolean', default: false },
      note: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'\n${USAGE}`);
  const parsed = v.safeParse(automationInputSchema(ctx.config.automations.minIntervalSeconds), {
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
  const project = await ctx.tenants.getProject(projectId);
  if (!project) throw new Error(`unknown project '${projectId}'`);
  const model = jobModel(project, ctx.config, parsed.output.model);
  if ('refused' in model) throw new UsageError(`--model ${model.refused}`);
  const created = await createAutomation(deps, project.id, parsed.output);
  ctx.out.write(`automation ${created.id} ready (schedule ${created.scheduleId})\n`);
  return 0;
}

/** `quire automations …`: the API's automation endpoints for an operator, on the same stores and schedules. */
export const automations: Command = async (args, ctx) => {
  const [verb, projectId, id, ...rest] = args;
  if (!verb || !projectId || (verb !== 'add' && verb !== 'list' && (!id || rest.length > 0))) throw new UsageError(USAGE);
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
      return await add(ctx, deps, projectId, args.slice(2));
    case 'list':
      if (id) throw new UsageError(USAGE);
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
};
