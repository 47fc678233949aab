import { deleteProjectAutomations, type AutomationDeps } from '../automations/index.js';
import { agentJobWorkflowId } from '../contracts/agent-job.js';
import { AUTOMATION_RUN_WORKFLOW } from '../contracts/automation-run.js';
import { PROJECT_ID } from '../contracts/search-attributes.js';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId } from '../contracts/webhook-delivery.js';
import { UnavailableError } from '../errors.js';
import { archiveJobRun, type JobRecord } from '../jobs/index.js';
import { awaitRunsClosed } from '../temporal/await-runs-closed.js';
import { deleteWorkflowRuns } from '../temporal/delete-runs.js';
import { filterLiteral } from '../temporal/list-filter.js';
import { deleteProject, getOrgProject, UnknownTenantError, type TenantStore } from '../tenants/index.js';
import type { WebhookStore } from '../webhooks/index.js';
import { activeJobsOf, deleteProjectRows, webhookIdsOf } from './project-rows.js';

/** What deleting a project touches: its record and rows, its automations' schedules, and its jobs', automations' and webhooks' workflows in Temporal. */
export type ProjectDeletionDeps = Pick<AutomationDeps, 'temporal' | 'automations' | 'jobs' | 'config'> & { tenants: TenantStore; webhooks: Pick<WebhookStore, 'list'> };

/** Jobs listed, and active ones archived, at once: each archive waits for its workflow to stop its turn (seconds, while a model call notices). */
const STOP_SLICE = 100;

/** How long the jobs' runs still closing (an archive just recorded) are given to end by themselves before their delete terminates them. */
const CLOSE_WAIT_MS = 5_000;

/** Times the active jobs are archived and the rows' transaction tried, before the delete is left for a repeat. */
const ROUNDS = 3;

/** A job became active after the listing (a message to a finished job): the transaction is rolled back. */
class JobsStillActive extends Error {
  override name = 'JobsStillActive';
}

/**
 * Deletes the organisation's project and everything it owns. First the project is marked deleting:
 * no job is created for it from now on (the job store's create reads the mark in its transaction,
 * whatever an API process's tenant cache holds). In Temporal then: its automations' schedules (no
 * job starts from now on), and each active job is archived through its workflow (archiveJobRun),
 * which stops the turn and writes the job's last state itself, so nothing of the job is written
 * after its rows are gone; then every run of every job's workflow is deleted from Temporal, history
 * and visibility record (a run the archive has not let close yet is terminated by its delete), so
 * nothing of the project's jobs outlives it there; so are every run of its webhooks' delivery
 * workflows and of its automations' firings. Then, in one transaction with the record: its
 * jobs with their messages and events, its webhooks and their deliveries, its automations and the
 * local forge's pull requests (deleteProjectRows) — unless a job of the project is active again (a
 * message to a finished one started a run): then nothing is deleted, that job is archived, its runs
 * deleted, and the transaction tried again, a few times. Once committed, its webhooks' delivery
 * runs are deleted once more (one started meanwhile). With Temporal down, or jobs still starting, the delete fails before anything
 * is deleted from the database (503), the mark stays, and the same delete, repeated, finishes it
 * (what it stopped stays stopped; runs whose delete Temporal accepted are gone or going).
 */
export async function deleteProjectAndJobs(deps: ProjectDeletionDeps, orgId: string, projectId: string): Promise<void> {
  const project = await getOrgProject(deps.tenants, orgId, projectId);
  // Deleted meanwhile (two deletes at once): the second is told it is unknown, as it would be a moment later.
  if (!(await deps.tenants.beginProjectDeletion(project.id))) throw new UnknownTenantError('project', project.id);
  await deleteProjectAutomations(deps, project.id);
  for (let round = 1; ; round++) {
    const jobs = await jobsOf(deps, project.id);
    const archived = await stopActiveJobs(deps, jobs);
    await deleteJobWorkflows(deps, jobs, archived);
    await deleteOwnWorkflows(deps, project.id, (await deps.webhooks.list(project.id)).map((hook) => hook.id));
    let webhooks: string[] = [];
    try {
      await deleteProject(deps.tenants, orgId, project.id, async (trx) => {
        // The record is deleted (and held) first: a job create waits for this transaction, then finds no project.
        if ((await activeJobsOf(trx, project.id)) > 0) throw new JobsStillActive();
        webhooks = await webhookIdsOf(trx, project.id);
        await deleteProjectRows(trx, project.id);
      });
      await endDeliveryWorkflows(deps, project.id, webhooks);
      return;
    } catch (err) {
      if (!(err instanceof JobsStillActive)) throw err;
      if (round === ROUNDS)
        throw new UnavailableError('workflow engine', `project '${project.id}' still has jobs starting: it is not deleted yet; repeat its delete to finish it`, { cause: err });
    }
  }
}

/** The runs a project's automations fired and those of its webhooks' delivery workflows (since they carry its id). */
function ownRunsFilter(projectId: string): string {
  return `${PROJECT_ID.name} = ${filterLiteral(projectId)} AND WorkflowType IN (${[AUTOMATION_RUN_WORKFLOW, WEBHOOK_DELIVERY_WORKFLOW].map(filterLiteral).join(', ')})`;
}

/**
 * Deletes from Temporal every run of the project's webhooks' delivery workflows (found by their
 * ids, and by the project's id) and of its automations' firings: their histories name its jobs'
 * events and start its jobs. An open delivery run (waiting for events) is terminated by its delete.
 */
async function deleteOwnWorkflows(deps: ProjectDeletionDeps, projectId: string, webhookIds: readonly string[]): Promise<void> {
  await deleteWorkflowRuns(
    deps.temporal,
    webhookIds.map((webhookId) => webhookDeliveryWorkflowId(projectId, webhookId)),
    ownRunsFilter(projectId),
  );
}

/**
 * Once the rows are gone, deletes again what deleteOwnWorkflows deleted, for a delivery run started
 * meanwhile or a webhook added meanwhile. The project is deleted already: a failure here (Temporal
 * down) is not the delete's; such a run finds its webhook gone and ends by itself within the hour.
 */
async function endDeliveryWorkflows(deps: ProjectDeletionDeps, projectId: string, webhookIds: readonly string[]): Promise<void> {
  try {
    await deleteOwnWorkflows(deps, projectId, webhookIds);
  } catch {
    // Left to end by itself, as said above.
  }
}

/** Every job of the project, whatever its status. */
async function jobsOf(deps: ProjectDeletionDeps, projectId: string): Promise<JobRecord[]> {
  const jobs: JobRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.list(projectId, { limit: STOP_SLICE, ...(cursor ? { cursor } : {}) });
    jobs.push(...page.jobs);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return jobs;
}

/** Archives every active job through its workflow; throws the first failure once all were tried. Returns the workflow ids of those archived. */
async function stopActiveJobs(deps: ProjectDeletionDeps, jobs: readonly JobRecord[]): Promise<Set<string>> {
  const active = jobs.filter((job) => job.status === 'active');
  for (let i = 0; i < active.length; i += STOP_SLICE) {
    const results = await Promise.allSettled(active.slice(i, i + STOP_SLICE).map((job) => archiveJobRun(deps, job)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  return new Set(active.map((job) => agentJobWorkflowId(job.id)));
}

/**
 * Deletes every run of the jobs' workflows from Temporal; runs deleted by an earlier attempt are fine.
 * A run still closing (its archive recorded, its last task not yet done) is given a few seconds to
 * close first: deleted then, it would be terminated, and its worker left with a task Temporal no longer has.
 */
async function deleteJobWorkflows(deps: ProjectDeletionDeps, jobs: readonly JobRecord[], archived: ReadonlySet<string>): Promise<void> {
  for (let i = 0; i < jobs.length; i += STOP_SLICE) {
    const ids = jobs.slice(i, i + STOP_SLICE).map((job) => agentJobWorkflowId(job.id));
    await awaitRunsClosed(deps.temporal, ids, ids.filter((id) => archived.has(id)), CLOSE_WAIT_MS);
    await deleteWorkflowRuns(deps.temporal, ids);
  }
}
