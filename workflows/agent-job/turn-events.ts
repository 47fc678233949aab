/**
 * The events the job workflow logs, as plain functions of its state: keys are
 * derived from the turn, so a retried or replayed publish names the same events.
 */
import type { MessageRef } from '../../core/contracts/agent-job.js';
import type { NewJobEvent, JobEventType, JobEventData } from '../../core/jobs/job-events.js';
import type { JobRecord } from '../../core/jobs/job-record.js';
import type { JobState, TurnOutcome } from './job-state.js';

function event(job: JobRecord, key: string, type: JobEventType, time: string, data: JobEventData): NewJobEvent {
  return { key, type, time, jobId: job.id, projectId: job.projectId, data };
}

export function turnStartedEvent(state: JobState, batch: MessageRef[], now: string): NewJobEvent {
  return event(state.job, `turn:${state.turn}:started`, 'turn.started', now, { turn: state.turn, messageIds: batch.map((m) => m.id) });
}

/** After a turn: what it did, the pull request it opened or updated, and the job's status once it is idle. */
export function turnEndedEvents(after: JobState, outcome: TurnOutcome, now: string): NewJobEvent[] {
  const { job } = after;
  const turn = after.turn;
  if (outcome.kind === 'cancelled') return [];
  const events: NewJobEvent[] = [];
  if (outcome.kind === 'done') {
    const { report } = outcome;
    events.push(
      event(job, `turn:${turn}:finished`, 'turn.finished', now, {
        turn,
        changed: report.changed,
        summary: job.summary,
        filesChanged: report.filesChanged ?? [],
        stopReason: report.stopReason,
      }),
    );
    if (outcome.prLink) {
      // Opened by this turn: the first, or a new one after a reviewer closed or merged the last.
      const type = outcome.opened ? 'pull_request.opened' : 'pull_request.updated';
      events.push(event(job, `turn:${turn}:pull_request`, type, now, { turn, url: outcome.prLink, title: job.title }));
    }
  } else {
    events.push(event(job, `turn:${turn}:finished`, 'turn.finished', now, { turn, changed: false, error: outcome.error }));
  }
  if (job.status === 'completed') {
    events.push(event(job, `turn:${turn}:completed`, 'job.completed', now, { turns: job.turns, prLink: job.prLink, summary: job.summary, filesChanged: job.filesChanged }));
  } else if (job.status === 'failed') {
    events.push(event(job, `turn:${turn}:failed`, 'job.failed', now, { turns: job.turns, error: job.error }));
  }
  return events;
}

export function archivedEvent(job: JobRecord, now: string): NewJobEvent {
  return event(job, 'archived', 'job.archived', job.archivedAt ?? now, { prLink: job.prLink, turns: job.turns });
}
