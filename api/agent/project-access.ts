import type { Context } from 'koa';
import type { JobStore } from '../../core/jobs/index.js';
import type { Project } from '../../core/tenants/index.js';
import { authOf } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { readJob, type FoundJob } from './job-reader.js';

export type AgentAccessDeps = Pick<ApiServices, 'tenants'>;

/** How every agent route (v1 and v2) finds the project and the job a request names, for the key's organisation. */
export function agentAccess(services: AgentAccessDeps, store: JobStore) {
  const projectOf = async (ctx: Context): Promise<Project> => {
    const project = await services.tenants.getProject(String(ctx.params.projectId));
    if (!project || project.orgId !== authOf(ctx).orgId) throw notFound('project');
    return project;
  };
  /** The project and its organisation's limit overrides, read together (the create path is latency-bound). */
  const projectAndLimits = async (ctx: Context) => {
    const [project, org] = await Promise.all([projectOf(ctx), services.tenants.getOrg(authOf(ctx).orgId)]);
    return { project, limits: org?.limits };
  };
  const jobOf = async (ctx: Context, project: Project): Promise<FoundJob> => {
    const found = await readJob(store, project.id, String(ctx.params.id));
    if (!found) throw notFound('job');
    return found;
  };
  return { projectOf, projectAndLimits, jobOf };
}
