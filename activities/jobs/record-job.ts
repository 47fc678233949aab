import { ApplicationFailure } from '@temporalio/common';
import { JOB_NOT_FOUND, type LoadedJob } from '../../core/contracts/agent-job.js';
import type { JobRecord, NewJobEvent } from '../../core/jobs/index.js';
import { createEventPublisher, type EventPublisherDeps } from '../events/index.js';
import type { ActivityServices } from '../services.js';

/** Message ids a run is told were handled: enough to refuse a repeat, small in workflow history. */
const HANDLED_IDS = 1000;

/** What the job-state activity uses: the job records and event logs, and the publisher that fans events out. */
export type JobActivityDeps = Pick<ActivityServices, 'jobs' | 'events'> & EventPublisherDeps;

/** The job workflow's reads and writes of Quire's database, the job's only record. */
export function createJobActivities(services: JobActivityDeps) {
  const publisher = createEventPublisher(services);
  return {
    /** What a new run starts from: the job's record, its latest turn and the messages its turns took. */
    async loadJob(input: { projectId: string; jobId: string }): Promise<LoadedJob> {
      const job = await services.jobs.get(input.projectId, input.jobId);
      if (!job) throw ApplicationFailure.nonRetryable(`job ${input.jobId} is not in the database`, JOB_NOT_FOUND);
      const turns = await services.events.startedTurns(job.id);
      return {
        job,
        turn: Math.max(job.turns, ...turns.map((t) => t.turn)),
        handledMessageIds: turns.flatMap((t) => t.messageIds).slice(-HANDLED_IDS),
      };
    },
    /**
     * The job's record and its new events in one transaction, then the events to the webhooks.
     * Idempotent: the store keeps the highest revision and each event has a deterministic key.
     */
    async recordJob(input: { job: JobRecord; events: NewJobEvent[] }): Promise<void> {
      const stored = await services.events.record(input.job, input.events);
      for (const event of stored) await publisher.deliver(event);
    },
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
