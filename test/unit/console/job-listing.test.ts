import assert from 'node:assert/strict';
import { jobRows, withPage, type ProjectJobs } from '../../../console/data/job-listing.js';

type Listed = { id: string; createdAt: string };
const job = (id: string, createdAt: string): Listed => ({ id, createdAt });
const ids = (projects: ProjectJobs<Listed>[]) => jobRows(projects).map((r) => `${r.projectId}/${r.job.id}`);

describe("console: every project's jobs as one list", () => {
  it('lists the jobs read, newest first, down to where a project with more to read stops', () => {
    const docs = { projectId: 'docs', jobs: [job('d3', '2026-03-03T00:00:00Z'), job('d2', '2026-03-02T00:00:00Z')], nextCursor: 'after-d2' };
    const api = { projectId: 'api', jobs: [job('a2', '2026-03-04T00:00:00Z'), job('a1', '2026-03-01T00:00:00Z')], nextCursor: null };
    // a1 is older than d2, the oldest of docs read so far: an unread docs job (d1) may come between.
    assert.deepEqual(ids([docs, api]), ['api/a2', 'docs/d3', 'docs/d2']);
    const older = withPage(docs, { jobs: [job('d1', '2026-02-28T00:00:00Z')], nextCursor: null });
    assert.deepEqual(ids([older, api]), ['api/a2', 'docs/d3', 'docs/d2', 'api/a1', 'docs/d1']);
    assert.equal(older.nextCursor, null);
  });

  it('lists nothing of projects that have no job', () => {
    assert.deepEqual(ids([{ projectId: 'docs', jobs: [], nextCursor: null }]), []);
  });
});
