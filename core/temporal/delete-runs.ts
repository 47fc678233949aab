import { isGrpcServiceError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { filterLiteral } from './list-filter.js';

/** gRPC NOT_FOUND: the run is gone already. */
const NOT_FOUND = 5;

/** Deletes sent at once. */
const DELETE_SLICE = 50;

interface Run {
  workflowId: string;
  runId: string;
}

/** Temporal's list filter for every run of the given workflow ids. */
export function runsOfFilter(workflowIds: readonly string[]): string {
  return `WorkflowId IN (${workflowIds.map(filterLiteral).join(', ')})`;
}

/**
 * Deletes from Temporal, history and visibility record, every run of each workflow id and every
 * run `alsoListed` (a list filter) names; an open run is terminated by its delete.
 * Returns once Temporal has accepted a delete of each run: it keeps the deletes and carries them
 * out in the background (the dev server within a minute). A run gone already, or deleted already
 * and not yet removed, is fine, so a repeat after a failure (Temporal down) finishes what one began.
 */
export async function deleteWorkflowRuns(temporal: Client, workflowIds: readonly string[], alsoListed?: string): Promise<void> {
  const filters = [...(workflowIds.length > 0 ? [runsOfFilter(workflowIds)] : []), ...(alsoListed ? [alsoListed] : [])];
  if (filters.length === 0) return;
  const runs = new Map<string, Run>();
  const add = (run: Run) => runs.set(`${run.workflowId}\n${run.runId}`, { workflowId: run.workflowId, runId: run.runId });
  for await (const run of temporal.workflow.list({ query: filters.map((f) => `(${f})`).join(' OR ') })) add(run);
  // Visibility records a run in the background: one closed a moment ago may not be listed yet, so each id's latest is described too.
  const latest = await Promise.all(workflowIds.map((workflowId) => latestRunOf(temporal, workflowId)));
  for (const run of latest) if (run) add(run);
  const all = [...runs.values()];
  for (let i = 0; i < all.length; i += DELETE_SLICE) await Promise.all(all.slice(i, i + DELETE_SLICE).map((run) => deleteRun(temporal, run)));
}

/** The run Temporal answers for the workflow id alone (its latest), if any. */
async function latestRunOf(temporal: Client, workflowId: string): Promise<Run | undefined> {
  try {
    return { workflowId, runId: (await temporal.workflow.getHandle(workflowId).describe()).runId };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

async function deleteRun(temporal: Client, run: Run): Promise<void> {
  try {
    await temporal.workflowService.deleteWorkflowExecution({ namespace: temporal.options.namespace, workflowExecution: run });
  } catch (err) {
    if (!(isGrpcServiceError(err) && err.code === NOT_FOUND)) throw err;
  }
}
