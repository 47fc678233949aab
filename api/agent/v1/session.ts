import * as v from 'valibot';
import { MAX_SUMMARY_CHARS, MAX_TODOS, type JobRecord } from '../../../core/jobs/index.js';
import { TodoSchema } from '../../../core/jobs/job-schema.js';

/** `haultReason`, spelled as Mintlify's admin API spells it. */
export const HAULT_REASONS = ['completed', 'github_missconfigured', 'error'] as const;
export type HaultReason = (typeof HAULT_REASONS)[number];

/** Error codes that mean the repository or its forge is set up wrong, not that the run broke. */
const MISCONFIGURED = new Set(['forge_misconfigured', 'bad_credentials', 'repository_not_found', 'docs_folder_outside']);

const dateTime = v.pipe(v.string(), v.isoTimestamp());

/** A job in the session shape of Mintlify's v1 agent API, field names as its admin-openapi.json spells them (`haulted`, `haultReason`). */
export const SessionSchema = v.object({
  sessionId: v.pipe(v.string(), v.description('The job id (`job_…`).')),
  subdomain: v.pipe(v.string(), v.description('The project id.')),
  branch: v.pipe(v.nullable(v.string()), v.description('The branch the agent pushes to.')),
  haulted: v.pipe(v.boolean(), v.description('The session stopped running: the job is completed, failed or archived.')),
  haultReason: v.pipe(
    v.optional(v.picklist(HAULT_REASONS)),
    v.description(
      'Only once `haulted`: `completed` (finished, bounded turns and archived jobs included), `github_missconfigured` (the repository or forge is set up wrong), `error` (any other failure).',
    ),
  ),
  pullRequestLink: v.pipe(v.optional(v.string()), v.description('The pull request, once a turn changed something; kept while a follow-up runs.')),
  messageToUser: v.pipe(
    v.optional(v.pipe(v.string(), v.maxLength(MAX_SUMMARY_CHARS))),
    v.description('The model’s message for the last turn (or why nothing changed); for a failed job, why it failed.'),
  ),
  todos: v.pipe(v.array(TodoSchema), v.maxLength(MAX_TODOS)),
  title: v.pipe(v.optional(v.string()), v.description('Beyond Mintlify’s published schema: the pull request’s title, once a turn has ended.')),
  createdAt: dateTime,
});
export type Session = v.InferOutput<typeof SessionSchema>;

function haultReasonOf(job: JobRecord): HaultReason | undefined {
  switch (job.status) {
    case 'active':
      return undefined;
    case 'failed':
      return job.error && MISCONFIGURED.has(job.error.code) ? 'github_missconfigured' : 'error';
    // An archived job stopped because it was told to, which is no error.
    case 'completed':
    case 'archived':
      return 'completed';
  }
}

/**
 * The session view of a job. Unlike v2's job, the pull request stays linked while a follow-up
 * runs (Mintlify clients poll for it), and a failed job's message to the user is why it failed.
 */
export function toSession(job: JobRecord): Session {
  const haultReason = haultReasonOf(job);
  const message = job.status === 'failed' && job.error ? job.error.message : job.summary;
  return {
    sessionId: job.id,
    subdomain: job.projectId,
    branch: job.branch,
    haulted: haultReason !== undefined,
    ...(haultReason ? { haultReason } : {}),
    ...(job.prLink ? { pullRequestLink: job.prLink } : {}),
    ...(message ? { messageToUser: message } : {}),
    todos: job.todos.map((t) => ({ id: t.id, content: t.content, status: t.status })),
    ...(job.title ? { title: job.title } : {}),
    createdAt: job.createdAt,
  };
}
