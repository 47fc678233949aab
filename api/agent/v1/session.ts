import type { JobRecord, Todo } from '../../../core/jobs/index.js';

/** `haultReason`, spelled as Mintlify's admin API spells it. */
export const HAULT_REASONS = ['completed', 'github_missconfigured', 'error'] as const;
export type HaultReason = (typeof HAULT_REASONS)[number];

/** Error codes that mean the repository or its forge is set up wrong, not that the run broke. */
const MISCONFIGURED = new Set(['forge_misconfigured', 'bad_credentials', 'repository_not_found']);

/** A job in the session shape of Mintlify's v1 agent API (field names as its spec spells them). */
export interface Session {
  sessionId: string;
  /** Mintlify's docs site; for Quire, the project. */
  subdomain: string;
  branch: string | null;
  /** The session stopped running: the job is completed, failed or archived. */
  haulted: boolean;
  /** Only once `haulted`. */
  haultReason?: HaultReason;
  pullRequestLink?: string;
  messageToUser?: string;
  todos: Todo[];
  /** Beyond the spec's schema: Mintlify's sessions carry it and the issue asks for it. */
  title?: string;
  createdAt: string;
}

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
