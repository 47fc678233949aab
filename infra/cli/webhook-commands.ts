import { isJobEventType, JOB_EVENT_TYPES, type JobEventType } from '../../core/jobs/index.js';
import { newWebhook, toWebhookView, MAX_DELIVERIES } from '../../core/webhooks/index.js';
import { UsageError } from './context.js';
import { defineCommand, list, str } from './flags.js';

const USAGE =
  'quire webhooks add PROJECT URL [--event TYPE]… [--secret-env VAR] | quire webhooks list [PROJECT] | quire webhooks remove PROJECT WEBHOOK_ID | quire webhooks deliveries PROJECT [--limit N]';

/** `quire webhooks …`: register where a project's job events are POSTed, and read what was delivered. */
export const webhooks = defineCommand({
  summary: 'Register where a project\'s job events are POSTed, and read what was delivered.',
  usage: ['add PROJECT URL [--event TYPE]… [--secret-env VAR]', 'list [PROJECT]', 'remove PROJECT WEBHOOK_ID', 'deliveries PROJECT [--limit N]'],
  flags: {
    event: { type: 'string', multiple: true, value: 'TYPE', help: `add: only these job events (${JOB_EVENT_TYPES.join(', ')}); default all` },
    'secret-env': { type: 'string', value: 'VAR', help: 'add: sign with the secret in the worker\'s variable VAR (else one is generated and printed once)' },
    limit: { type: 'string', value: 'N', help: `deliveries: how many, newest first (1 to ${MAX_DELIVERIES}, default 50)` },
  },
  run: async (positionals, flagValues, ctx) => {
  const values = { event: list(flagValues, 'event') ?? [], 'secret-env': str(flagValues, 'secret-env'), limit: str(flagValues, 'limit') ?? '50' };
  const [verb, projectId, target] = positionals;
  const store = ctx.webhooks;
  const line = (text: string) => ctx.out.write(text + '\n');

  if (verb === 'add' && projectId && target) {
    if (!(await ctx.tenants.getProject(projectId))) throw new UsageError(`unknown project '${projectId}'; create it first with: quire projects add ORG/${projectId} --repo …`);
    if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) throw new UsageError(`URL must be an http(s) URL, got '${target}'`);
    const bad = values.event.find((e) => !isJobEventType(e));
    if (bad !== undefined) throw new UsageError(`--event must be one of ${JOB_EVENT_TYPES.join(', ')}; got '${bad}'`);
    const envName = values['secret-env'];
    if (envName !== undefined && !/^[A-Z_][A-Z0-9_]*$/.test(envName)) throw new UsageError('--secret-env must be an environment variable name');
    const events: JobEventType[] = values.event.filter(isJobEventType);
    const { hook: record, secret: generated } = newWebhook(projectId, target, events, envName);
    const hook = await store.put(record);
    line(`webhook ${hook.id} for ${projectId} → ${hook.url} (${events.length ? events.join(', ') : 'all events'})`);
    if (generated) {
      line('signing secret (shown once; verify X-Quire-Signature with it):');
      line(generated);
    } else line(`signed with the secret in the worker's variable ${envName ?? ''}`);
    return 0;
  }
  if (verb === 'list') {
    for (const h of (await store.list(projectId)).map(toWebhookView)) line([h.id, h.projectId, h.url, h.events.join(',') || 'all', h.secret].join('\t'));
    return 0;
  }
  if (verb === 'remove' && projectId && target) {
    if (!(await store.remove(projectId, target))) throw new UsageError(`no webhook ${target} in project ${projectId}; see quire webhooks list ${projectId}`);
    line(`removed ${target}`);
    return 0;
  }
  if (verb === 'deliveries' && projectId) {
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERIES) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_DELIVERIES}`);
    for (const d of await store.deliveries(projectId, limit)) {
      line([d.updatedAt, d.deliveryId, d.event, d.status, d.statusCode ?? '-', `attempts=${d.attempts}`, d.lastError ?? ''].join('\t'));
    }
    return 0;
  }
  throw new UsageError(USAGE);
  },
});
