import { createAgentActivities } from './agent/index.js';
import { createAutomationActivities } from './automations/index.js';
import { createJobActivities, createReconcileActivities } from './jobs/index.js';
import { createIndexingActivities, createPollActivities } from './indexing/index.js';
import { createPingActivities } from './ping.js';
import { createWebhookActivities } from './webhooks/index.js';
import type { ActivityServices } from './services.js';

export type { ActivityServices } from './services.js';

/** All activities of the worker, built from their clients. Each feature adds its factory. */
export function createActivities(given: ActivityServices) {
  const services = given;
  return {
    ...createPingActivities(),
    ...createIndexingActivities(services),
    ...createPollActivities(services),
    ...createAgentActivities(services),
    ...createJobActivities(services),
    ...createReconcileActivities(services),
    ...createAutomationActivities(services),
    ...createWebhookActivities(services),
  };
}

export type Activities = ReturnType<typeof createActivities>;
