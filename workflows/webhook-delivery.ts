import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  log,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
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
/**
 * Runs from before this patch kept retrying the head event when Temporal suggested a new run: a
 * worker upgraded under such a run replays it so, and cancels attempts only from where it goes on.
 */
const CANCEL_ON_CONTINUE_AS_NEW = 'webhook-delivery-cancel-on-continue-as-new';
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

  const giveUpMs = settings.giveUpHours * 3_600_000;
  let headSince = input.headSince;
  for (;;) {
    if (!(await condition(() => queue.length > 0, IDLE_MS))) {
      await condition(allHandlersFinished);
      // A signal that came with the timer is delivered before the workflow ends.
      if (queue.length === 0) return;
    }
    const ref = queue[0];
    if (!ref) continue;
    const since = (headSince ??= Date.now());
    // Events keep coming while one is retried (for up to giveUpHours): history grows with each. When Temporal
    // suggests a new run, this one stops trying and continues as new with the event still at the head.
    const attempt = new CancellationScope();
    let settled = false;
    if (patched(CANCEL_ON_CONTINUE_AS_NEW)) void condition(() => settled || workflowInfo().continueAsNewSuggested).then(() => settled || attempt.cancel());
    try {
      const summary = `${ref.type} ${ref.jobId}#${ref.seq}`;
      const scheduleToCloseTimeout = Math.max(1000, giveUpMs - (Date.now() - since));
      await attempt.run(() => deliver.deliverWebhookEvent.executeWithOptions({ summary, scheduleToCloseTimeout }, [{ projectId, webhookId, event: ref }]));
    } catch (err) {
      if (isCancellation(err)) {
        await condition(allHandlersFinished);
        return continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, queue, handled, headSince: since });
      }
      const cause = err instanceof Error && err.cause instanceof ApplicationFailure ? err.cause : undefined;
      // A removed webhook (or a forgotten event) has nothing to retry: the event is skipped.
      if (cause?.type !== WEBHOOK_GONE) {
        log.warn('webhook delivery abandoned', { webhookId, jobId: ref.jobId, seq: ref.seq });
        // A refusal that no retry changes (a receiver on a private address) says so; otherwise the time ran out.
        const reason = cause?.nonRetryable ? cause.message : `gave up after ${settings.giveUpHours} hours without a 2xx answer`;
        await store.abandonWebhookDelivery({ projectId, webhookId, event: ref, reason }).catch(() => undefined);
      }
    }
    settled = true;
    headSince = undefined;
    queue.shift();
    handled = [...handled, idOf(ref)].slice(-MAX_HANDLED_IDS);
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, queue, handled, headSince: undefined });
    }
  }
}
