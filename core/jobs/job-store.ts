import type { JobMessage } from '../contracts/agent-job.js';
import type { JobRecord, JobStatus } from './job-record.js';

export interface JobListQuery {
  status?: JobStatus;
  /** 1–100. */
  limit: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
}

export interface JobPage {
  jobs: JobRecord[];
  nextCursor: string | null;
}

/** A job by its address, as retention names the jobs it deletes. */
export interface JobRef {
  projectId: string;
  jobId: string;
}

export function isJobRef(value: unknown): value is JobRef {
  return typeof value === 'object' && value !== null && 'projectId' in value && typeof value.projectId === 'string' && 'jobId' in value && typeof value.jobId === 'string';
}

/**
 * Quire's own record of every job, so jobs stay readable (and listable) after
 * Temporal's retention has forgotten their workflows.
 */
export interface JobStore {
  /** Keeps `record` unless the store already holds a higher revision; returns what is kept. */
  put(record: JobRecord): Promise<JobRecord>;
  /**
   * Records a job just created, before the create answers, with its first messages, in one
   * transaction; never replaces an existing record or message (a retried create finds its own).
   * Resolves to whether it wrote the record: false when one of its id was there already (an
   * earlier or simultaneous create of the same caller-chosen id made the job).
   */
  create(record: JobRecord, messages?: readonly JobMessage[]): Promise<boolean>;
  /**
   * Refuses a project whose delete has begun (ProjectDeletingError, 409) or ended
   * (ProjectDeletedError, 404), as `create` does in its transaction: a check before starting
   * anything for the project, which `create` repeats.
   */
  requireOpenProject(projectId: string): Promise<void>;
  /**
   * Keeps a message's prompt out of workflow history. The first write of an id
   * wins, so a retried request cannot change a message already sent. Refuses a project
   * being deleted or deleted as `create` does, reading its mark in the same transaction.
   */
  putMessage(projectId: string, jobId: string, message: JobMessage): Promise<void>;
  /** The messages with these ids, in that order; an unknown id is left out. */
  getMessages(projectId: string, jobId: string, ids: string[]): Promise<JobMessage[]>;
  /** Forgets a job and its messages: one whose workflow never started, or one past retention. */
  remove(projectId: string, jobId: string): Promise<void>;
  get(projectId: string, jobId: string): Promise<JobRecord | undefined>;
  /** Jobs archived before `before` (ISO 8601), oldest archive first, at most `limit`: what retention deletes next. */
  archivedBefore(before: string, limit: number): Promise<JobRef[]>;
  /**
   * Jobs in one of `statuses` last changed before `before` (ISO 8601), least recent first, at most
   * `limit`: what idle archive (completed, failed) and the job reconcile (active) take next.
   */
  unchangedBefore(statuses: readonly JobStatus[], before: string, limit: number): Promise<JobRecord[]>;
  /** Newest first (by creation time, then id). */
  list(projectId: string, query: JobListQuery): Promise<JobPage>;
}

export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
}

interface CursorPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(record: Pick<JobRecord, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.id])).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // Ours hold a time and an id: no control characters (PostgreSQL refuses NUL, SQLite would find nothing).
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string' && !/[\u0000-\u001f]/.test(parsed[0] + parsed[1])) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  throw new InvalidCursorError('cursor is not one this API returned');
}

/** Newest first: later createdAt first, ties broken by id descending. */
export function compareNewestFirst(a: CursorPosition, b: CursorPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
