/**
 * The agent job as Quire keeps it in its database, the only record of it: the API
 * writes the first one, workflow code every later one (the job's workflow, or for
 * a run stopped from outside the job-reconcile workflow). Pure types and
 * functions only: the workflow sandbox imports this file.
 */
import type { InferOutput } from 'valibot';
import { publicSource } from '../git/public-source.js';
// Types only (erased): the schemas are values of a valibot module the sandbox must not bundle.
import type { JobErrorSchema, JobRecordSchema, JobSourceSchema, JobViewShape } from './job-schema.js';

export const JOB_STATUSES = ['active', 'completed', 'failed', 'archived'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

// The job's shape is declared once, as valibot entries in job-schema.ts; these are its types.
export type JobError = InferOutput<typeof JobErrorSchema>;
export type JobSource = InferOutput<typeof JobSourceSchema>;
export type JobRecord = InferOutput<typeof JobRecordSchema>;
/** The job object of API.md. */
export type JobView = InferOutput<typeof JobViewShape>;

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
