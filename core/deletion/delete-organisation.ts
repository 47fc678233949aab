import { TenantConflictError, UnknownTenantError, type OrgDeletionBegun } from '../tenants/index.js';
import { clearDomainIndex, deleteDomainAndIndex, type DomainDeletionDeps } from './delete-domain.js';
import { deleteProjectAndJobs, type ProjectDeletionDeps } from './delete-project.js';

/** What deleting an organisation touches: its projects' and its domains'. */
export type OrgDeletionDeps = ProjectDeletionDeps & DomainDeletionDeps;

/** What deleting an organisation did; everything listed is gone. */
export interface OrgDeletion extends OrgDeletionBegun {
  id: string;
  projects: string[];
  domains: string[];
}

/**
 * An organisation whose deletion began and could not finish: its keys are revoked and its sessions
 * ended, and the projects and domains listed are left. Deleting it again carries on from there.
 */
export class OrgDeletionIncompleteError extends Error {
  override name = 'OrgDeletionIncompleteError';
  constructor(
    readonly orgId: string,
    readonly left: { projects: string[]; domains: string[] },
    options: { cause: unknown },
  ) {
    const what = [...left.projects.map((id) => `project ${id}`), ...left.domains.map((id) => `domain ${id}`)];
    super(
      `organisation '${orgId}' is partly deleted: its keys are revoked and its console sessions ended, but ${what.length > 0 ? what.join(', ') : 'its record'} could not be deleted yet; delete it again to finish`,
      options,
    );
  }
}

/**
 * Deletes an organisation: first, in one transaction, its keys are revoked, its console sessions
 * ended and it is marked deleting; then each domain and project goes through its own delete (a
 * domain's index with it; a project's schedules and active jobs stopped first, then its record with
 * its jobs, webhooks, automations and pull requests); last its record goes and its id is retired. A
 * step that fails (Temporal down) leaves the rest for a repeat (OrgDeletionIncompleteError says what).
 */
export async function deleteOrganisation(deps: OrgDeletionDeps, orgId: string): Promise<OrgDeletion> {
  const begun = await deps.tenants.beginOrgDeletion(orgId);
  const done: OrgDeletion = { id: orgId, ...begun, projects: [], domains: [] };
  for (let round = 1; ; round++) {
    const left: OrgDeletionIncompleteError['left'] = { projects: [], domains: [] };
    let firstFailure: unknown;
    const attempt = async (step: () => Promise<void>, onDone: () => void, onLeft: () => void) => {
      try {
        await step();
        onDone();
      } catch (err) {
        // Gone already: a deletion of the same organisation running at once took it.
        if (err instanceof UnknownTenantError) return;
        firstFailure ??= err;
        onLeft();
      }
    };
    const [projects, domains, clearing] = await Promise.all([deps.tenants.listProjects(orgId), deps.tenants.listDomains(orgId), deps.tenants.clearingDomains(orgId)]);
    // A domain's record goes first; its index after (Temporal stops its run): with Temporal down the record
    // still goes, and the domain is left until a repeat has removed its index.
    for (const { id } of domains) await attempt(() => deleteDomainAndIndex(deps, orgId, id), () => done.domains.push(id), () => left.domains.push(id));
    // Those an earlier attempt deleted without removing their index.
    for (const id of clearing) await attempt(() => clearDomainIndex(deps, id), () => done.domains.push(id), () => left.domains.push(id));
    for (const { id } of projects) await attempt(() => deleteProjectAndJobs(deps, orgId, id), () => done.projects.push(id), () => left.projects.push(id));
    if (firstFailure !== undefined) throw new OrgDeletionIncompleteError(orgId, left, { cause: firstFailure });
    try {
      await deps.tenants.finishOrgDeletion(orgId);
      return done;
    } catch (err) {
      if (err instanceof UnknownTenantError) return done;
      // Something is still there that this round did not list: a deletion of the same organisation
      // running at once was between the steps of a project or domain (its record gone, its index not
      // yet). Another round finishes it alongside (each step is idempotent, and reported once).
      if (!(err instanceof TenantConflictError) || round >= FINISH_ROUNDS) throw new OrgDeletionIncompleteError(orgId, left, { cause: err });
    }
  }
}

/** Rounds of listing and deleting before an organisation whose record still cannot go is reported as left. */
const FINISH_ROUNDS = 3;
