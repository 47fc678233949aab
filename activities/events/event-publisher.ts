import {
  deliverEventSignal,
  PROJECT_ID,
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryWorkflowId,
  type WebhookDeliveryInput,
} from '../../core/contracts/index.js';
import type { JobEvent, NewJobEvent } from '../../core/jobs/index.js';
import { wantsEvent } from '../../core/webhooks/index.js';
import { activityClient } from '../activity-context.js';
import type { ActivityServices } from '../services.js';

/** Logs a job's events and hands each to the project's webhooks. */
export interface EventPublisher {
  /** Idempotent by the event's key; throws when the log or Temporal cannot take it (the caller decides). */
  publish(event: NewJobEvent): Promise<JobEvent>;
  /** Hands an event already in the log to the webhooks that want it. */
  deliver(event: JobEvent): Promise<void>;
}

/** What the publisher uses: the event logs, and the webhooks it queues deliveries for. */
export type EventPublisherDeps = Pick<ActivityServices, 'events' | 'webhooks' | 'config' | 'logger'>;

/**
 * Appends to the event log, then signals (starting it if need be) the delivery workflow of every
 * webhook that wants the event. A repeat (a retried activity) signals again: the delivery workflow
 * drops what it has already handled, and a signal lost to an error is sent by the retry.
 */
export function createEventPublisher(services: EventPublisherDeps): EventPublisher {
  const events = services.events;
  const webhooks = services.webhooks;
  const { config } = services;
  const deliver = async (stored: JobEvent): Promise<void> => {
    const hooks = (await webhooks.list(stored.projectId)).filter((h) => wantsEvent(h, stored.type));
    if (hooks.length === 0) return;
    const client = activityClient();
    if (!client) {
      services.logger.warn({ jobId: stored.jobId, seq: stored.seq }, 'job event not sent to webhooks: no Temporal client outside an activity');
      return;
    }
    for (const hook of hooks) {
      const input: WebhookDeliveryInput = { projectId: stored.projectId, webhookId: hook.id, settings: config.webhooks, queue: [], handled: [] };
      await client.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
        workflowId: webhookDeliveryWorkflowId(stored.projectId, hook.id),
        taskQueue: config.temporal.taskQueue,
        args: [input],
        signal: deliverEventSignal,
        signalArgs: [{ jobId: stored.jobId, seq: stored.seq, type: stored.type }],
        // Its runs are found by the project's id when the project is deleted, those of a webhook removed before too.
        typedSearchAttributes: [{ key: PROJECT_ID, value: stored.projectId }],
        staticSummary: `webhook ${hook.id} of project ${stored.projectId}`,
      });
    }
  };
  return {
    async publish(event) {
      const stored = await events.append(event);
      await deliver(stored);
      return stored;
    },
    deliver,
  };
}
