import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { JOB_NOT_FOUND, type LoadedJob } from '../../core/contracts/agent-job.js';
import type { JobRecord, NewJobEvent } from '../../core/jobs/index.js';
import { createEventPublisher, type EventPublisherDeps } from '../events/index.js';
import type { ActivityServices } from '../services.js';

/** Message ids a run is told were handled: enough to refuse a repeat, small in workflow history. */
const HANDLED_IDS = 1000;

/**
 * How long a run's first load waits for its job's record: the API starts the run and writes the
 * record at the same time, so the run can look before the write commits. A record still missing
 * after this (the API died between the two) fails the run with `JobNotFound`.
 */
export const RECORD_WAIT_MS = 30_000;
/** The pause between looks for a record not yet written: the write it waits for takes milliseconds. */
const RECORD_LOOK_INTERVAL = '100 milliseconds';

/** A retryable miss while the record may still be on its way, else a final one. */
function missingJob(jobId: string, waitMs: number): ApplicationFailure {
  const waited = Date.now() - Context.current().info.scheduledTimestampMs;
  if (waited >= waitMs) return ApplicationFailure.nonRetryable(`job ${jobId} is not in the database`, JOB_NOT_FOUND);
  return ApplicationFailure.create({ message: `job ${jobId} is not in the database yet`, type: JOB_NOT_FOUND, nextRetryDelay: RECORD_LOOK_INTERVAL });
}

/** What the job-state activity uses: the job records and event logs, and the publisher that fans events out. */
export type JobActivityDeps = Pick<ActivityServices, 'jobs' | 'events'> & EventPublisherDeps;

/** The job workflow's reads and writes of Quire's database, the job's only record. */
export function createJobActivities(services: JobActivityDeps, recordWaitMs = RECORD_WAIT_MS) {
  const publisher = createEventPublisher(services);
  return {
    /**
     * What a new run starts from: the job's record, its latest turn and the messages its turns
     * took. Retried shortly while the record may still be committing (see RECORD_WAIT_MS).
     */
    async loadJob(input: { projectId: string; jobId: string }): Promise<LoadedJob> {
      const job = await services.jobs.get(input.projectId, input.jobId);
      if (!job) throw missingJob(input.jobId, recordWaitMs);
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
