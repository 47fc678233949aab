/** What the list needs of a job: when it was created (the API's `createdAt`). */
interface Created {
  createdAt: string;
}

/** What the Jobs page has read of one project: its jobs so far, newest first, and where its next page starts. */
export interface ProjectJobs<J extends Created> {
  projectId: string;
  jobs: J[];
  nextCursor: string | null;
}

const created = (job: Created) => Date.parse(job.createdAt);

/** A project's jobs with its next page read after them. */
export function withPage<J extends Created>(read: ProjectJobs<J>, page: { jobs: J[]; nextCursor: string | null }): ProjectJobs<J> {
  return { ...read, jobs: [...read.jobs, ...page.jobs], nextCursor: page.nextCursor };
}

/**
 * Every project's jobs read so far as one list, newest first. It stops at the newest of the oldest
 * jobs read of the projects with more to read: below that, one of their unread jobs may belong, and
 * the list would skip it.
 */
export function jobRows<J extends Created>(projects: ProjectJobs<J>[]): Array<{ projectId: string; job: J }> {
  // No project with more to read: Math.max() of nothing is -Infinity, and every job read is listed.
  const stop = Math.max(...projects.flatMap((p) => (p.nextCursor && p.jobs.length > 0 ? [created(p.jobs.at(-1)!)] : [])));
  return projects
    .flatMap((p) => p.jobs.map((job) => ({ projectId: p.projectId, job })))
    .filter((row) => created(row.job) >= stop)
    .sort((a, b) => created(b.job) - created(a.job));
}
