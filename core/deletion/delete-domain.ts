import fs from 'node:fs/promises';
import path from 'node:path';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config } from '../config.js';
import { indexWorkflowId } from '../contracts/index-domain.js';
import { DOMAIN_ID } from '../contracts/search-attributes.js';
import { deleteDomainPollSchedule } from '../index-runs/index.js';
import type { WritableDocIndex } from '../retrieval/index.js';
import { deleteWorkflowRuns } from '../temporal/delete-runs.js';
import { filterLiteral } from '../temporal/list-filter.js';
import { deleteDomain, UnknownTenantError, type TenantStore } from '../tenants/index.js';

/** What deleting a domain touches: its record, its poll schedule and its index and poll runs in Temporal, its index and its checkout. */
export interface DomainDeletionDeps {
  tenants: TenantStore;
  temporal: Client;
  /** Its `dropDomain` removes the domain's files or points and tells every process to forget it. */
  docIndex: Pick<WritableDocIndex, 'dropDomain'>;
  config: Pick<Config, 'dataDir'>;
}

/**
 * Deletes the organisation's domain and everything its index is: the record first (its routes
 * answer 404, no index run can start, the id is marked clearing), then its poll schedule is
 * deleted, its index run stopped and every index and poll run of it deleted from Temporal (history
 * and visibility record), its index dropped (files or Qdrant points, and every process's memory of
 * it) and its checkout removed. A step that fails (Temporal or Qdrant down) leaves the id clearing: the same delete,
 * repeated, finishes it, and until then the id cannot be created again, so it always starts empty.
 */
export async function deleteDomainAndIndex(deps: DomainDeletionDeps, orgId: string, id: string): Promise<void> {
  const domain = await deps.tenants.getDomain(id);
  if (domain && domain.orgId === orgId) await deleteDomain(deps.tenants, orgId, id);
  else if (domain || !(await deps.tenants.clearingDomains(orgId)).includes(id)) throw new UnknownTenantError('domain', id);
  await clearDomainIndex(deps, id);
}

/** Removes a deleted domain's index, then marks it cleared; every step may be repeated. */
export async function clearDomainIndex(deps: DomainDeletionDeps, id: string): Promise<void> {
  // Its poll schedule first: left behind, it would start runs for the id (and a later domain of it).
  await deleteDomainPollSchedule(deps.temporal, id);
  await stopIndexRun(deps.temporal, id);
  // Every run that names the domain (its index runs, its schedule's polls) goes now, not at the namespace's retention.
  await deleteWorkflowRuns(deps.temporal, [indexWorkflowId(id)], `${DOMAIN_ID.name} = ${filterLiteral(id)}`);
  await deps.docIndex.dropDomain(id);
  const checkout = checkoutOf(deps.config.dataDir, id);
  if (checkout) await fs.rm(checkout, { recursive: true, force: true });
  // Cleared meanwhile by a deletion running at once: it is that one's to report.
  if (!(await deps.tenants.domainCleared(id))) throw new UnknownTenantError('domain', id);
}

/** Terminates the domain's index run, if one is open: it would write the index again. */
async function stopIndexRun(temporal: Client, domainId: string): Promise<void> {
  try {
    await temporal.workflow.getHandle(indexWorkflowId(domainId)).terminate('its domain was deleted');
  } catch (err) {
    // Never started, or closed already.
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/** The domain's checkout under `<dataDir>/sources/` (see the indexing activities); never a folder outside it. */
function checkoutOf(dataDir: string, domainId: string): string | undefined {
  const sources = path.join(dataDir, 'sources');
  const folder = path.join(sources, domainId);
  // An id that is not one folder name (the API's ids never are) has no checkout of its own to remove.
  return path.dirname(folder) === sources ? folder : undefined;
}
