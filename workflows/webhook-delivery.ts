import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/index.js';
import {
  deliverEventSignal,
  WEBHOOK_GONE,
  webhookDeliveryId,
  type WebhookDeliveryInput,
  type WebhookEventRef,
} from '../core/contracts/webhook-delivery.js';

/** Delivery ids remembered against repeated signals; bounds the continue-as-new input. */
export const MAX_HANDLED_IDS = 1000;
/** A webhook with nothing to send for this long lets its workflow end; the next event starts a new one. */
const IDLE_MS = 60 * 60 * 1000;

const store = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * One webhook's deliveries, in the order the events were signalled: each event is retried with
 * exponential backoff until the receiver answers 2xx or `giveUpHours` pass (then it is abandoned
 * and logged so). The job that signalled never waits for any of it.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  const { projectId, webhookId, settings } = input;
  const queue: WebhookEventRef[] = [...input.queue];
  let handled: string[] = [...input.handled];
  const idOf = (ref: WebhookEventRef) => webhookDeliveryId(webhookId, ref);

  setHandler(deliverEventSignal, (ref: WebhookEventRef) => {
    const id = idOf(ref);
    if (handled.includes(id) || queue.some((q) => idOf(q) === id)) return;
    queue.push(ref);
  });

  const deliver = proxyActivities<WebhookActivities>({
    startToCloseTimeout: settings.timeoutMs + 5000,
    scheduleToCloseTimeout: `${settings.giveUpHours} hours`,
    retry: {
      initialInterval: settings.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: `${settings.maxIntervalSeconds} seconds`,
      nonRetryableErrorTypes: [WEBHOOK_GONE],
    },
  });

  for (;;) {
    if (!(await condition(() => queue.length > 0, IDLE_MS))) {
      await condition(allHandlersFinished);
      // A signal that came with the timer is delivered before the workflow ends.
      if (queue.length === 0) return;
    }
    const ref = queue[0];
    if (!ref) continue;
    try {
      await deliver.deliverWebhookEvent.executeWithOptions({ summary: `${ref.type} ${ref.jobId}#${ref.seq}` }, [{ projectId, webhookId, event: ref }]);
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof ApplicationFailure ? err.cause : undefined;
      // A removed webhook (or a forgotten event) has nothing to retry: the event is skipped.
      if (cause?.type !== WEBHOOK_GONE) {
        log.warn('webhook delivery abandoned', { webhookId, jobId: ref.jobId, seq: ref.seq });
        const reason = `gave up after ${settings.giveUpHours} hours without a 2xx answer`;
        await store.abandonWebhookDelivery({ projectId, webhookId, event: ref, reason }).catch(() => undefined);
      }
    }
    queue.shift();
    handled = [...handled, idOf(ref)].slice(-MAX_HANDLED_IDS);
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, queue, handled });
    }
  }
}
