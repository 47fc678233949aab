import { newJobId } from './job-id.js';
import { publicRepository, type JobRecord } from './job-record.js';

/** A new job as the API creates it: active, revision 0, with the repository stripped of credentials. */
export function newJobRecord(opts: { projectId: string; repository: string; ref: string; model: string; now?: Date }): JobRecord {
  const now = (opts.now ?? new Date()).toISOString();
  return {
    id: newJobId(),
    projectId: opts.projectId,
    status: 'active',
    source: { repository: publicRepository(opts.repository), ref: opts.ref },
    model: opts.model,
    prLink: null,
    createdAt: now,
    archivedAt: null,
    updatedAt: now,
    error: null,
    revision: 0,
  };
}
