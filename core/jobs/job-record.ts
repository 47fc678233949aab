/**
 * The agent job as Quire keeps it in its database, the only record of it: the API
 * writes the first one, workflow code every later one (the job's workflow, or for
 * a run stopped from outside the job-reconcile workflow). Pure types and
 * functions only: the workflow sandbox imports this file.
 */
import { publicSource } from '../git/public-source.js';
import type { JobStopReason, Todo } from './job-report.js';

export const JOB_STATUSES = ['active', 'completed', 'failed', 'archived'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobError {
  code: string;
  message: string;
}

export interface JobSource {
  /** Never carries credentials: see `publicRepository`. */
  repository: string;
  ref: string;
}

/** What the API shows and Quire keeps alike. */
interface JobFields {
  id: string;
  status: JobStatus;
  source: JobSource;
  model: string;
  /** The pull request of the job's branch, kept even while a follow-up turn runs. */
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
  updatedAt: string;
  /** The branch the agent pushes to (`quire/<id>`). */
  branch: string;
  /** The pull request's title once a turn changed something; null before. */
  title: string | null;
  /** The model's message to the user for the last turn, or why nothing changed; null before the first turn ends. */
  summary: string | null;
  /** Turns begun, the running one included. */
  turns: number;
  /** Docs-relative paths changed across the job's turns, in the order first changed. */
  filesChanged: string[];
  /** The bound that stopped the last turn before the model finished; null when it finished on its own. */
  stopReason: JobStopReason | null;
  /** The agent's plan as it last wrote it. */
  todos: Todo[];
}

export interface JobRecord extends JobFields {
  projectId: string;
  error: JobError | null;
  /** Pull requests open as drafts (chosen at create time; every run of the job reads it). */
  draft: boolean;
  /**
   * Grows with every state change; the store keeps the highest one, so a write of an activity
   * attempt that timed out but still commits late never replaces a newer state.
   */
  revision: number;
}

/** The job object of API.md. */
export interface JobView extends JobFields {
  error?: JobError;
}

/** The public job object; the seed says `prLink` is null while the job is active. */
export function toJobView(record: JobRecord): JobView {
  return {
    id: record.id,
    status: record.status,
    source: { repository: record.source.repository, ref: record.source.ref },
    model: record.model,
    prLink: record.status === 'active' ? null : record.prLink,
    createdAt: record.createdAt,
    archivedAt: record.archivedAt,
    updatedAt: record.updatedAt,
    branch: record.branch,
    title: record.title,
    summary: record.summary,
    turns: record.turns,
    filesChanged: [...record.filesChanged],
    stopReason: record.stopReason,
    todos: record.todos.map((t) => ({ id: t.id, content: t.content, status: t.status })),
    ...(record.status === 'failed' && record.error ? { error: record.error } : {}),
  };
}

/** The branch a job's turns push to; derived so every writer names it alike. */
export function jobBranch(jobId: string): string {
  return `quire/${jobId}`;
}

/**
 * The repository as its users know it: a URL without userinfo (tokens), an scp-like `git@host:path`,
 * or, for a repository that is a folder on the server, the project's name (a server path is never shown).
 */
export function publicRepository(repository: string, projectId: string): string {
  return publicSource(repository) ?? projectId;
}

export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === 'string' && (JOB_STATUSES as readonly string[]).includes(value);
}
