import type { NewJobEvent } from '../../core/jobs/index.js';
import type { ActivityServices } from '../services.js';
import { createEventPublisher } from './event-publisher.js';

export { createEventPublisher, type EventPublisher } from './event-publisher.js';

/** The job workflow's own events (turns, pull requests, job status), published in order. */
export function createEventActivities(services: ActivityServices) {
  const publisher = createEventPublisher(services);
  return {
    /** Idempotent: each event carries a deterministic key, so a retry neither duplicates nor reorders. */
    async publishJobEvents(events: NewJobEvent[]): Promise<void> {
      for (const event of events) await publisher.publish(event);
    },
  };
}

export type EventActivities = ReturnType<typeof createEventActivities>;
