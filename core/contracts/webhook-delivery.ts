/**
 * The webhook delivery workflow's contract: one long-lived workflow per
 * (project, webhook) takes job events by signal, in order, and delivers each
 * with its own retried activity. Imports only `define.ts` and types.
 */
import type { JobEventType } from '../jobs/job-events.js';
import { defineSignal } from './define.js';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<void>;

/** One workflow per webhook: signalWithStart finds the running one, so events queue behind each other. */
export function webhookDeliveryWorkflowId(projectId: string, webhookId: string): string {
  return `webhook-${projectId}-${webhookId}`;
}

/** Which event to deliver; the activity reads the event itself from the job event log. */
export interface WebhookEventRef {
  jobId: string;
  seq: number;
  type: JobEventType;
}

/** How deliveries are retried (from config.webhooks, fixed when the workflow starts). */
export interface WebhookRetrySettings {
  initialIntervalMs: number;
  maxIntervalSeconds: number;
  /** One POST's deadline. */
  timeoutMs: number;
  /** After this long without a 2xx the delivery is abandoned and the next event goes. */
  giveUpHours: number;
}

export interface WebhookDeliveryInput {
  projectId: string;
  webhookId: string;
  settings: WebhookRetrySettings;
  /** Events signalled and not yet delivered, oldest first; continue-as-new carries them. */
  queue: WebhookEventRef[];
  /** Delivery ids already handled (the latest ones), so a repeated signal is not delivered twice. */
  handled: string[];
  /**
   * When the first attempt of the queue's head began (epoch ms), for a run continued while it was
   * being retried: the next run gives up on it at the same time. Absent: the head has not been tried.
   */
  headSince?: number;
}

export const deliverEventSignal = defineSignal<[WebhookEventRef]>('deliverEvent');

/** The `X-Quire-Delivery` id: the same for every attempt of one event to one webhook. */
export function webhookDeliveryId(webhookId: string, ref: Pick<WebhookEventRef, 'jobId' | 'seq'>): string {
  return `${webhookId}.${ref.jobId}.${ref.seq}`;
}

/** The webhook was removed (or its secret cannot be found and never will): nothing to retry. */
export const WEBHOOK_GONE = 'WebhookGone';
