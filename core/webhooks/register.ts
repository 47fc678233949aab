import { randomBytes } from 'node:crypto';
import type { JobEventType } from '../jobs/job-events.js';
import { webhookId, type Webhook } from './webhook.js';

/**
 * A project's webhook as `quire webhooks add` and the API register it: the id from the project
 * and the URL (registering the URL again updates it), and a generated signing secret unless the
 * worker holds one in a named variable. The generated secret is returned to be shown once.
 */
export function newWebhook(projectId: string, url: string, events: JobEventType[], secretEnv?: string): { hook: Webhook; secret: string | undefined } {
  const secret = secretEnv ? undefined : `whsec_${randomBytes(24).toString('base64url')}`;
  return {
    hook: {
      id: webhookId(projectId, url),
      projectId,
      url,
      events,
      secret: secret ? { kind: 'stored', value: secret } : { kind: 'env', name: secretEnv ?? '' },
      createdAt: new Date().toISOString(),
    },
    secret,
  };
}
