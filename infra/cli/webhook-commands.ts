import { isOwnSetting } from '../../core/config.js';
import { isJobEventType, JOB_EVENT_TYPES, type JobEventType } from '../../core/jobs/index.js';
import { newWebhook, toWebhookView, MAX_DELIVERIES } from '../../core/webhooks/index.js';
import { knownProject, UsageError } from './context.js';
import { defineCommand, idAlone, list, str, type FlagValues } from './flags.js';

const USAGE =
  'quire webhooks add PROJECT URL [--event TYPE]… [--secret-env VAR] | quire webhooks list [PROJECT] | quire webhooks remove PROJECT WEBHOOK_ID | quire webhooks deliveries PROJECT [--limit N]';

type WebhookCall =
  | { verb: 'add'; projectId: string; url: string; events: JobEventType[]; envName: string | undefined }
  | { verb: 'list'; projectId: string | undefined }
  | { verb: 'remove'; projectId: string; webhookId: string }
  | { verb: 'deliveries'; projectId: string; limit: number };

/** What `quire webhooks …` asks for, or a UsageError: needs nothing open. */
function webhookCall([verb, projectId, target]: string[], flagValues: FlagValues): WebhookCall {
  if (projectId !== undefined) idAlone('PROJECT', projectId);
  if (verb === 'add' && projectId && target) {
    if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) throw new UsageError(`URL must be an http(s) URL, got '${target}'`);
    if (new URL(target).username || new URL(target).password) throw new UsageError('URL must not hold credentials (user:password@): deliveries are signed (--secret-env)');
    const given = list(flagValues, 'event') ?? [];
    const bad = given.find((e) => !isJobEventType(e));
    if (bad !== undefined) throw new UsageError(`--event must be one of ${JOB_EVENT_TYPES.join(', ')}; got '${bad}'`);
    const envName = str(flagValues, 'secret-env');
    if (envName !== undefined && !/^[A-Z_][A-Z0-9_]*$/.test(envName)) throw new UsageError('--secret-env must be an environment variable name');
    if (envName !== undefined && isOwnSetting(envName)) throw new UsageError(`--secret-env ${envName} names one of Quire's own settings, never handed to a project or webhook`);
    return { verb, projectId, url: target, events: given.filter(isJobEventType), envName };
  }
  if (verb === 'list') return { verb, projectId };
  if (verb === 'remove' && projectId && target) return { verb, projectId, webhookId: target };
  if (verb === 'deliveries' && projectId) {
    const limit = Number(str(flagValues, 'limit') ?? '50');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERIES) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_DELIVERIES}`);
    return { verb, projectId, limit };
  }
  throw new UsageError(USAGE);
}

/** `quire webhooks …`: register where a project's job events are POSTed, and read what was delivered. */
export const webhooks = defineCommand({
  summary: 'Register where a project\'s job events are POSTed, and read what was delivered.',
  usage: ['add PROJECT URL [--event TYPE]… [--secret-env VAR]', 'list [PROJECT]', 'remove PROJECT WEBHOOK_ID', 'deliveries PROJECT [--limit N]'],
  flags: {
    event: { type: 'string', multiple: true, value: 'TYPE', help: `add: only these job events (${JOB_EVENT_TYPES.join(', ')}); default all` },
    'secret-env': { type: 'string', value: 'VAR', help: 'add: sign with the secret in the worker\'s variable VAR (else one is generated and printed once)' },
    limit: { type: 'string', value: 'N', help: `deliveries: how many, newest first (1 to ${MAX_DELIVERIES}, default 50)` },
  },
  opens: 'database',
  check: (positionals, flagValues) => void webhookCall(positionals, flagValues),
  run: async (positionals, flagValues, ctx) => {
    const call = webhookCall(positionals, flagValues);
    const store = ctx.webhooks;
    const line = (text: string) => ctx.out.write(text + '\n');
    switch (call.verb) {
      case 'add': {
        const { projectId, events, envName } = call;
        await knownProject(ctx, projectId);
        const { hook: record, secret: generated } = newWebhook(projectId, call.url, events, envName);
        const hook = await store.put(record);
        line(`webhook ${hook.id} for ${projectId} → ${hook.url} (${events.length ? events.join(', ') : 'all events'})`);
        if (generated) {
          line('signing secret (shown once; verify X-Quire-Signature with it):');
          line(generated);
        } else line(`signed with the secret in the worker's variable ${envName ?? ''}`);
        return 0;
      }
      case 'list':
        if (call.projectId !== undefined) await knownProject(ctx, call.projectId);
        for (const h of (await store.list(call.projectId)).map(toWebhookView)) line([h.id, h.projectId, h.url, h.events.join(',') || 'all', h.secret].join('\t'));
        return 0;
      case 'remove':
        if (!(await store.remove(call.projectId, call.webhookId)))
          throw new UsageError(`no webhook ${call.webhookId} in project ${call.projectId}; see quire webhooks list ${call.projectId}`);
        line(`removed ${call.webhookId}`);
        return 0;
      case 'deliveries':
        await knownProject(ctx, call.projectId);
        for (const d of await store.deliveries(call.projectId, call.limit)) {
          line([d.updatedAt, d.deliveryId, d.event, d.status, d.statusCode ?? '-', `attempts=${d.attempts}`, d.lastError ?? ''].join('\t'));
        }
        return 0;
    }
  },
});
