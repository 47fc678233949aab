import { deleteProjectAutomations, type AutomationDeps } from '../automations/index.js';
import { deleteProject, getOrgProject, type TenantStore } from '../tenants/index.js';

/** What deleting a project touches: its record, and its automations' Temporal schedules. */
export type ProjectDeletionDeps = Pick<AutomationDeps, 'temporal' | 'automations' | 'config'> & { tenants: TenantStore };

/**
 * Deletes the organisation's project: its automations and their schedules first (with Temporal down
 * this fails before anything is deleted, and a retry finishes it), then its record (see deleteProject).
 */
export async function deleteProjectAndAutomations(deps: ProjectDeletionDeps, orgId: string, projectId: string): Promise<void> {
  const project = await getOrgProject(deps.tenants, orgId, projectId);
  await deleteProjectAutomations(deps, project.id);
  await deleteProject(deps.tenants, orgId, project.id);
}
