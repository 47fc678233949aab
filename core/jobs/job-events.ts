/**
 * A job's event feed: what the agent did, in order, for the SSE endpoint and
 * the webhooks. Each event has a per-job sequence number (the SSE `id`) that
 * only grows. Pure types and functions only: the workflow sandbox imports this file.
 */
import type { JobRecord } from './job-record.js';

export const JOB_EVENT_TYPES = [
  'turn.started',
  'tool.step',
  'todos.changed',
  'turn.finished',
  'pull_request.opened',
  'pull_request.updated',
  'job.completed',
  'job.failed',
  'job.archived',
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** The events after which a job has nothing more to say until it is sent a message. */
export const TERMINAL_JOB_EVENTS: readonly JobEventType[] = ['job.completed', 'job.failed', 'job.archived'];

export function isJobEventType(value: unknown): value is JobEventType {
  return typeof value === 'string' && (JOB_EVENT_TYPES as readonly string[]).includes(value);
}

/** Summaries only: tool names, paths, outcomes; never file contents or secrets. */
export type JobEventData = Record<string, unknown>;

/** An event as a writer hands it to the log. */
export interface NewJobEvent {
  /**
   * Names the event deterministically (`turn:3:started`): appending a key the
   * log already holds returns the stored event, so a retried activity never
   * duplicates one.
   */
  key: string;
  type: JobEventType;
  /** ISO 8601. */
  time: string;
  jobId: string;
  projectId: string;
  data: JobEventData;
}

/** An event as the log keeps it and readers see it. */
export interface JobEvent extends Omit<NewJobEvent, 'key'> {
  /** 1, 2, 3… per job: the SSE `id`, and what `Last-Event-ID` names. */
  seq: number;
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A turn as its `turn.started` event names it. */
export interface StartedTurn {
  turn: number;
  messageIds: string[];
}

/** The durable, ordered per-job event log, kept next to the job store. */
export interface JobEventLog {
  /** Stores the event with the job's next sequence number; idempotent by `key`. */
  append(event: NewJobEvent): Promise<JobEvent>;
  /**
   * The job workflow's write: the job's record (unless a higher revision is stored) and its new
   * events, in one transaction, then a wake-up for the streams. Idempotent; returns the events as stored.
   */
  record(job: JobRecord, events: NewJobEvent[]): Promise<JobEvent[]>;
  /** The job's turns so far, oldest first: what a new run of its workflow must not handle again. */
  startedTurns(jobId: string): Promise<StartedTurn[]>;
  /** Events with a sequence number above `afterSeq`, oldest first, at most `limit`. */
  after(jobId: string, afterSeq: number, limit?: number): Promise<JobEvent[]>;
  /** The job's newest event. */
  latest(jobId: string): Promise<JobEvent | undefined>;
  /** Resolves true once an event above `afterSeq` exists, false on timeout or abort. */
  waitForEvents(jobId: string, afterSeq: number, options: WaitOptions): Promise<boolean>;
  /** Deletes the job's events (retention), in slices that never hold the store long; returns how many. */
  forget(jobId: string): Promise<number>;
}

/** Rows one step of a retention purge deletes: a big purge is many short writes, never one long lock. */
export const PURGE_SLICE = 500;

/** Events one read returns by default: a resumed client catches up in pages. */
export const EVENT_PAGE = 100;
