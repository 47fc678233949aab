/**
 * The agent job as Quire keeps it: in the workflow memo while Temporal knows
 * the workflow, and in our own job store after that. Pure types and functions
 * only: the workflow sandbox imports this file.
 */

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
}

export interface JobRecord extends JobFields {
  projectId: string;
  error: JobError | null;
  /** Grows with every state change in the workflow; stores keep the highest one. */
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
    ...(record.status === 'failed' && record.error ? { error: record.error } : {}),
  };
}

/** Strips userinfo (tokens) from a repository URL; local paths pass through. */
export function publicRepository(repository: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*@)?(.*)$/i.exec(repository);
  if (scheme) return `${scheme[1]}${scheme[3]}`;
  // scp-like git@host:path keeps its user (never a secret), but user:password@ loses it.
  return repository.replace(/^[^@/:]+:[^@/]*@/, '');
}

export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === 'string' && (JOB_STATUSES as readonly string[]).includes(value);
}
