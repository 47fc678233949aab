import * as v from 'valibot';
import { JOB_EVENT_TYPES } from '../../core/jobs/index.js';
import { secretVariableName } from '../../core/tenants/index.js';

/** Shapes of the webhook routes; the OpenAPI document follows them. */

export const WebhookParams = v.object({
  projectId: v.pipe(v.string(), v.minLength(1), v.description('A project of the key’s organisation.')),
  webhookId: v.pipe(v.string(), v.minLength(1), v.description('The webhook id (`wh_…`).')),
});

export const WebhookCreateBody = v.strictObject({
  url: v.pipe(
    v.string('must be a string'),
    v.maxLength(2000, 'must be at most 2000 characters'),
    v.check((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http(s) URL such as https://hooks.example.com/quire'),
    // Deliveries are signed instead; a password in the URL would show in the delivery log and workflow history.
    v.check((s) => !URL.canParse(s) || (!new URL(s).username && !new URL(s).password), 'must not hold credentials (user:password@): deliveries are signed (secretEnv)'),
    v.description(
      'The receiver. A host on the server or its private network is refused (400) unless the operator sets `QUIRE_ALLOW_PRIVATE_TARGETS` (allowed on the embedded defaults).',
    ),
  ),
  events: v.pipe(
    v.optional(v.array(v.picklist(JOB_EVENT_TYPES, `must be one of ${JOB_EVENT_TYPES.join(', ')}`)), []),
    v.description('The event types to send; empty or absent: all of them.'),
  ),
  secretEnv: v.pipe(
    v.optional(secretVariableName),
    v.description(
      "Sign with the secret in the worker’s variable of this name instead of a generated one. On a shared service (`QUIRE_ORG_SCOPED_VARIABLES`) one of the organisation's own: starting with its id in capitals (`ACME_` for `acme`).",
    ),
  ),
});

export const WebhookView = v.object({
  id: v.string(),
  projectId: v.string(),
  url: v.string(),
  events: v.array(v.picklist(JOB_EVENT_TYPES)),
  secret: v.pipe(v.string(), v.description('`stored` (generated, kept by Quire) or `env:<VARIABLE>`; never the secret itself.')),
  createdAt: v.string(),
});

export const WebhookCreated = v.object({
  ...WebhookView.entries,
  signingSecret: v.pipe(v.nullable(v.string()), v.description('The generated signing secret, shown this once; null when it is in the worker’s variable.')),
});

export const WebhookList = v.object({ webhooks: v.array(WebhookView) });
