import { ApplicationFailure } from '@temporalio/common';
import { fetch } from 'undici';
import { WEBHOOK_GONE, webhookDeliveryId, type WebhookEventRef } from '../../core/contracts/index.js';
import { PrivateTargetError, privateTargetProblem, targetDispatcher } from '../../core/http/index.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhookBody, type Webhook, type WebhookDelivery } from '../../core/webhooks/index.js';
import { activityAttempt } from '../activity-context.js';
import type { ActivityServices } from '../services.js';

export interface DeliveryInput {
  projectId: string;
  webhookId: string;
  event: WebhookEventRef;
}

const MAX_ERROR_CHARS = 300;
/** A receiver on a private address while the operator allows none: not retried, the delivery is abandoned saying why. */
const WEBHOOK_TARGET_REFUSED = 'WebhookTargetRefused';

export type SecretDeps = Pick<ActivityServices, 'secrets'>;

/** The secret's value, looked up here so it never travels through workflow history. */
function secretOf(services: SecretDeps, hook: Webhook): string | undefined {
  return hook.secret.kind === 'stored' ? hook.secret.value : services.secrets(hook.secret.name);
}

/** What failed, for the delivery log: never the secret, the body or the receiver's answer. */
function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const text = code ?? (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));
  return text.slice(0, MAX_ERROR_CHARS);
}

/** What delivering webhooks uses: the hooks and their deliveries, the events they carry, the signing secrets. */
export type WebhookActivityDeps = Pick<ActivityServices, 'webhooks' | 'events' | 'secrets' | 'config' | 'logger' | 'metrics'>;

/**
 * POSTs one job event to one webhook, signed; throws (Temporal retries with backoff) until the receiver answers 2xx.
 * Deliveries honour an egress proxy (HTTP(S)_PROXY, NO_PROXY) as model requests do; without one, where
 * private targets are refused, each connection's own lookup refuses a private address (a name that
 * passed the check before the request cannot rebind to one). undici's own `fetch` takes its dispatcher
 * with matching types, where Node's global one describes its bundled undici.
 */
export function createWebhookActivities(services: WebhookActivityDeps) {
  const store = services.webhooks;
  const events = services.events;
  const { timeoutMs } = services.config.webhooks;
  const dispatcher = targetDispatcher(services.config.proxy, services.config.allowPrivateTargets);

  return {
    async deliverWebhookEvent(input: DeliveryInput): Promise<void> {
      const hook = await store.get(input.projectId, input.webhookId);
      if (!hook) throw ApplicationFailure.nonRetryable(`webhook ${input.webhookId} was removed`, WEBHOOK_GONE);
      const event = (await events.after(input.event.jobId, input.event.seq - 1, 1)).find((e) => e.seq === input.event.seq);
      if (!event) throw ApplicationFailure.nonRetryable(`event ${input.event.seq} of job ${input.event.jobId} is not in the log`, WEBHOOK_GONE);
      const deliveryId = webhookDeliveryId(hook.id, event);
      const delivery: WebhookDelivery = {
        deliveryId,
        projectId: hook.projectId,
        webhookId: hook.id,
        url: hook.url,
        event: event.type,
        jobId: event.jobId,
        seq: event.seq,
        status: 'pending',
        statusCode: null,
        attempts: activityAttempt(),
        lastError: null,
        updatedAt: new Date().toISOString(),
      };
      const note = (patch: Partial<WebhookDelivery>) =>
        store.recordDelivery({ ...delivery, ...patch, updatedAt: new Date().toISOString() }).catch((err: unknown) => {
          services.logger.warn({ err, deliveryId }, 'webhook delivery log not written');
        });
      const secret = secretOf(services, hook);
      if (!secret) {
        // The operator may still set the variable and restart the worker: retried like an outage.
        const lastError = `the signing secret's variable ${hook.secret.kind === 'env' ? hook.secret.name : ''} is not set on the worker`;
        await note({ status: 'failed', lastError });
        // Counted as a failed attempt, so the failing and backlog alerts see a webhook that cannot be signed.
        services.metrics.webhooks.delivered('failed');
        throw new Error(lastError);
      }
      const refuse = async (why: string) => {
        const lastError = `refused: the receiver ${why}`;
        await note({ status: 'failed', lastError });
        services.metrics.webhooks.delivered('failed');
        return ApplicationFailure.nonRetryable(lastError, WEBHOOK_TARGET_REFUSED);
      };
      // Checked at each delivery too: the name may resolve elsewhere now, and the setting may have changed.
      const refused = services.config.allowPrivateTargets ? undefined : await privateTargetProblem(hook.url);
      if (refused) throw await refuse(refused);
      const body = JSON.stringify({ id: deliveryId, ...event });
      let status: number;
      try {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'Quire-Webhooks',
            [SIGNATURE_HEADER]: signWebhookBody(secret, body, Math.floor(Date.now() / 1000)),
            [DELIVERY_HEADER]: deliveryId,
            [EVENT_HEADER]: event.type,
          },
          body,
          // A 3xx is a failed delivery: following it would send the signed body somewhere the operator never registered.
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
          dispatcher,
        });
        status = response.status;
        await response.body?.cancel();
      } catch (err) {
        // The name answered a private address when connecting (a rebinding DNS): refused as above.
        if (err instanceof Error && err.cause instanceof PrivateTargetError) throw await refuse(err.cause.reason);
        const lastError = describe(err);
        await note({ status: 'failed', lastError });
        services.metrics.webhooks.delivered('failed');
        throw new Error(`webhook ${hook.id} unreachable: ${lastError}`);
      }
      if (status >= 200 && status < 300) {
        await note({ status: 'delivered', statusCode: status });
        services.metrics.webhooks.delivered('delivered');
        return;
      }
      const lastError = `the receiver answered ${status}`;
      await note({ status: 'failed', statusCode: status, lastError });
      services.metrics.webhooks.delivered('failed');
      throw new Error(`webhook ${hook.id}: ${lastError}`);
    },

    /** Retries gave up (config.webhooks.giveUpHours): the log says so, and the next event goes. */
    async abandonWebhookDelivery(input: DeliveryInput & { reason: string }): Promise<void> {
      const deliveryId = webhookDeliveryId(input.webhookId, input.event);
      // By its id: a busy project's newer deliveries would hide it from a listing, and with it its attempts.
      const kept = await store.delivery(input.projectId, deliveryId);
      const hook = await store.get(input.projectId, input.webhookId);
      await store.recordDelivery({
        deliveryId,
        projectId: input.projectId,
        webhookId: input.webhookId,
        url: kept?.url ?? hook?.url ?? '',
        event: input.event.type,
        jobId: input.event.jobId,
        seq: input.event.seq,
        status: 'abandoned',
        statusCode: kept?.statusCode ?? null,
        attempts: kept?.attempts ?? 0,
        lastError: input.reason.slice(0, MAX_ERROR_CHARS),
        updatedAt: new Date().toISOString(),
      });
      services.metrics.webhooks.delivered('gave_up');
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
