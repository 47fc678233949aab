import { listProjects } from '../api/admin.js';
import { listJobs } from '../api/jobs.js';
import { Show, useLoad } from '../components/async.js';
import { Page } from '../components/page.js';
import { formatTime } from './conversations.js';

/** Every project's recent agent jobs with their status and pull request. */
export function JobsPage(_: { path?: string }) {
  const [loaded] = useLoad(async () => {
    const projects = await listProjects();
    const lists = await Promise.all(projects.map(async (p) => (await listJobs(p.id)).map((job) => ({ projectId: p.id, job }))));
    return lists.flat().sort((a, b) => Date.parse(b.job.createdAt) - Date.parse(a.job.createdAt));
  }, []);

  return (
    <Page title="Jobs">
      <Show loaded={loaded}>
        {(jobs) =>
          jobs.length === 0 ? (
            <p class="empty">No agent jobs yet. Start one from a gap.</p>
          ) : (
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
                {jobs.map(({ projectId, job }) => (
                  <tr key={job.id}>
                    <th scope="row">
                      <a href={`/console/jobs/${encodeURIComponent(projectId)}/${encodeURIComponent(job.id)}`}>{job.title ?? job.id}</a>
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
          )
        }
      </Show>
    </Page>
  );
}
