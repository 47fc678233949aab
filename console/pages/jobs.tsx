import { rooted } from '../api/client.js';
import { useState } from 'preact/hooks';
import { listProjects } from '../api/admin.js';
import { listJobs, type Job } from '../api/jobs.js';
import { Show, useLoad } from '../components/async.js';
import { LoadMore } from '../components/load-more.js';
import { Page } from '../components/page.js';
import { jobRows, withPage, type ProjectJobs } from '../data/job-listing.js';
import { formatTime } from './conversations.js';

/** Every project's agent jobs, newest first, with their status and pull request; older ones a page at a time. */
export function JobsPage(_: { path?: string }) {
  const [loaded] = useLoad(async () => {
    const projects = await listProjects();
    return Promise.all(projects.map(async (p): Promise<ProjectJobs<Job>> => ({ projectId: p.id, ...(await listJobs(p.id)) })));
  }, []);

  return (
    <Page title="Jobs">
      <Show loaded={loaded}>{(first) => <JobList first={first} />}</Show>
    </Page>
  );
}

function JobList({ first }: { first: ProjectJobs<Job>[] }) {
  const [read, setRead] = useState(first);
  const rows = jobRows(read);
  const more = read.some((p) => p.nextCursor);
  // Each project with more gives its next page; the button is busy meanwhile, so `read` is the latest.
  const loadOlder = async () => setRead(await Promise.all(read.map(async (p) => (p.nextCursor ? withPage(p, await listJobs(p.projectId, p.nextCursor)) : p))));
  if (rows.length === 0 && !more) {
    return (
      <p class="empty">
        No agent jobs yet. Start one from a question the docs could not answer, on <a href={rooted('/console/gaps')}>Gaps</a>, or on a schedule, in{' '}
        <a href={rooted('/console/settings/automations')}>Settings, Automations</a>.
      </p>
    );
  }
  return (
    <>
      <table class="jobs stacked">
        <caption class="visually-hidden">Agent jobs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Project</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Pull request</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ projectId, job }) => (
            <tr key={job.id}>
              <th scope="row">
                <a href={rooted(`/console/jobs/${encodeURIComponent(projectId)}/${encodeURIComponent(job.id)}`)}>{job.title ?? job.id}</a>
              </th>
              <td data-label="Project">{projectId}</td>
              <td data-label="Status">
                <span class={`badge ${job.status}`}>{job.status}</span>
              </td>
              <td data-label="Created">
                <time dateTime={job.createdAt}>{formatTime(job.createdAt)}</time>
              </td>
              <td data-label="Pull request">{job.prLink ? <a href={job.prLink}>Open</a> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {more ? <LoadMore label="Load older jobs" load={loadOlder} /> : null}
    </>
  );
}
