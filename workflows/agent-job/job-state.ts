/**
 * The agent job's state within one run and its transitions, as plain functions:
 * the workflow applies them and records the result; unit tests call them
 * directly. Timestamps come in as arguments so every function is pure.
 */
import type { LoadedJob, MessageRef } from '../../core/contracts/agent-job.js';
import type { JobError, JobRecord } from '../../core/jobs/job-record.js';
import { boundSummary, boundTodos, type JobStopReason, type Todo } from '../../core/jobs/job-report.js';

/** Message ids a run remembers besides Temporal's own de-duplication of update ids. */
export const MAX_SEEN_IDS = 1000;
/** Messages quoted in the pull-request description. */
export const MAX_HANDLED = 50;
/**
 * The most changed files a job lists (its record, its events, its pull request's description):
 * with paths of at most 512 bytes the list stays well inside Temporal's 2 MB per payload, which
 * the record crosses in every run. The pull request itself shows every file.
 */
export const MAX_LISTED_FILES = 1_000;

export interface JobState {
  job: JobRecord;
  /** Accepted, not yet handled by a turn of this run. */
  pending: MessageRef[];
  /** Ids accepted so far, oldest first. */
  seen: string[];
  /** Turns begun so far; the running turn's number. */
  turn: number;
  /** Ids of the latest handled messages, oldest first. */
  handled: string[];
  /** Files changed across turns, in the order first changed. */
  filesChanged: string[];
}

/** What a finished turn says it did, as the job shows it. */
export interface TurnReport {
  /** Whether the turn pushed a change. */
  changed: boolean;
  title: string;
  /** The model's message to the user, or why nothing changed. */
  summary: string;
  /** The bound that stopped the turn; null when the model finished. */
  stopReason: JobStopReason | null;
  /** The plan the model last wrote; absent when it wrote none this turn (the previous one stays). */
  todos?: Todo[];
  /** Docs-relative paths this turn changed (for its event; the job keeps the union across turns). */
  filesChanged?: string[];
}

/** How a turn ended; `cancelled` only when an archive stopped it. */
export type TurnOutcome =
  /** `opened`: the turn's pull request is a new one (the first, or one after the last was closed or merged). */
  | { kind: 'done'; prLink: string | null; opened: boolean; report: TurnReport }
  | { kind: 'failed'; error: JobError }
  | { kind: 'cancelled' };

type JobPatch = Partial<Omit<JobRecord, 'revision' | 'updatedAt'>>;

/** A new revision of the job record. */
function changed(job: JobRecord, patch: JobPatch, now: string): JobRecord {
  return { ...job, ...patch, updatedAt: now, revision: job.revision + 1 };
}

/** A run's state: the job as loaded, and the messages it was started with that no turn took yet. */
export function startState(loaded: LoadedJob, pending: MessageRef[]): JobState {
  const handled = loaded.handledMessageIds;
  const fresh = pending.filter((m) => !handled.includes(m.id));
  return {
    job: loaded.job,
    pending: fresh,
    seen: [...handled, ...fresh.map((m) => m.id)].slice(-MAX_SEEN_IDS),
    turn: loaded.turn,
    handled: handled.slice(-MAX_HANDLED),
    filesChanged: loaded.job.filesChanged,
  };
}

export function isArchived(state: JobState): boolean {
  return state.job.status === 'archived';
}

/** Queues a message not seen before, and shows the job active (without an old error) at once. */
export function acceptMessage(state: JobState, message: MessageRef, now: string): JobState {
  if (state.seen.includes(message.id)) return state;
  const seen = [...state.seen, message.id].slice(-MAX_SEEN_IDS);
  const active = state.job.status === 'active' && !state.job.error;
  return {
    ...state,
    pending: [...state.pending, message],
    seen,
    job: active ? state.job : changed(state.job, { status: 'active', error: null }, now),
  };
}

/** Idempotent; the caller cancels a running turn. */
export function archiveJob(state: JobState, now: string): JobState {
  if (isArchived(state)) return state;
  return { ...state, job: changed(state.job, { status: 'archived', archivedAt: now }, now) };
}

/** Takes every pending message into the next turn. */
export function beginTurn(state: JobState, now: string): { state: JobState; batch: MessageRef[] } {
  const batch = state.pending;
  const handled = [...state.handled, ...batch.map((m) => m.id)].slice(-MAX_HANDLED);
  const job = state.job.status === 'active' ? state.job : changed(state.job, { status: 'active', error: null }, now);
  return { state: { ...state, job, pending: [], turn: state.turn + 1, handled }, batch };
}

/** Files the running turn pushed, for this and later pull-request descriptions: the first `MAX_LISTED_FILES`. */
export function noteFilesChanged(state: JobState, files: string[]): JobState {
  const room = MAX_LISTED_FILES - state.filesChanged.length;
  const added = room > 0 ? files.filter((f) => !state.filesChanged.includes(f)).slice(0, room) : [];
  return added.length === 0 ? state : { ...state, filesChanged: [...state.filesChanged, ...added] };
}

/** What the job says after a turn that finished: the title of its pull request when the turn opened one, else the open one's (the latest turn's before any). */
function reported(state: JobState, report: TurnReport, opened: boolean): JobPatch {
  return {
    title: state.job.prLink && !opened ? state.job.title : report.title,
    summary: boundSummary(report.summary),
    stopReason: report.stopReason,
    todos: report.todos ? boundTodos(report.todos) : state.job.todos,
  };
}

/** The job after a turn; a message that arrived during the turn keeps it active until its own turn. */
export function endTurn(state: JobState, outcome: TurnOutcome, now: string): JobState {
  const idle = state.pending.length === 0;
  switch (outcome.kind) {
    case 'done': {
      const changedState = noteFilesChanged(state, outcome.report.filesChanged ?? []);
      const ran = { turns: state.turn, filesChanged: changedState.filesChanged };
      return {
        ...changedState,
        job: changed(state.job, { status: idle ? 'completed' : 'active', prLink: outcome.prLink ?? state.job.prLink, error: null, ...ran, ...reported(state, outcome.report, outcome.opened) }, now),
      };
    }
    case 'failed':
      return { ...state, job: changed(state.job, { status: idle ? 'failed' : 'active', error: outcome.error, turns: state.turn, filesChanged: state.filesChanged }, now) };
    case 'cancelled':
      return state;
  }
}

/** A job archived while its turn ended anyway (the pull request step runs to its end): it names the pull request the turn opened. */
export function keepPullRequest(state: JobState, outcome: TurnOutcome, now: string): JobState {
  if (outcome.kind !== 'done' || outcome.prLink === null || outcome.prLink === state.job.prLink) return state;
  return { ...state, job: changed(state.job, { prLink: outcome.prLink }, now) };
}

/** The error a run fails with: the job's, when the run leaves it failed. */
export function runFailure(state: JobState): JobError | undefined {
  return state.job.status === 'failed' && state.job.error ? state.job.error : undefined;
}
