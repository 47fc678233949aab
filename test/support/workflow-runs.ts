import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { runsOfFilter } from '../../core/temporal/delete-runs.js';

/** The runs of the workflow ids that Temporal's visibility lists. */
export function listedRuns(temporal: Client, workflowIds: readonly string[]): Promise<Array<{ workflowId: string; runId: string }>> {
  return runsListedBy(temporal, runsOfFilter(workflowIds));
}

/** The runs Temporal's visibility lists for a list filter. */
export async function runsListedBy(temporal: Client, filter: string): Promise<Array<{ workflowId: string; runId: string }>> {
  const runs: Array<{ workflowId: string; runId: string }> = [];
  for await (const run of temporal.workflow.list({ query: filter })) runs.push({ workflowId: run.workflowId, runId: run.runId });
  return runs;
}

/** The runs a list filter still lists once it lists none, or after 200 looks (see leftInTemporal). */
export async function leftListedBy(temporal: Client, filter: string): Promise<Array<{ workflowId: string; runId: string }>> {
  let left: Array<{ workflowId: string; runId: string }> = [];
  for (let look = 0; look < 200; look++) {
    left = await runsListedBy(temporal, filter);
    if (left.length === 0) break;
    await sleep(500);
  }
  return left;
}

/** The workflow ids Temporal still describes a run of. */
async function describable(temporal: Client, workflowIds: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    workflowIds.map((id) =>
      temporal.workflow.getHandle(id).describe().then(
        () => id,
        (err: unknown) => {
          if (err instanceof WorkflowNotFoundError) return undefined;
          throw err;
        },
      ),
    ),
  );
  return found.filter((id) => id !== undefined);
}

/**
 * What Temporal still has of the workflow ids (those it describes, the runs it lists) once it has
 * nothing, or as it stands after 200 looks: it carries out a delete in the background (the dev
 * server within about half a minute), so a test waits for it here and asserts on what is left.
 */
export async function leftInTemporal(temporal: Client, workflowIds: readonly string[]): Promise<{ described: string[]; listed: Array<{ workflowId: string; runId: string }> }> {
  let left = { described: [] as string[], listed: [] as Array<{ workflowId: string; runId: string }> };
  for (let look = 0; look < 200; look++) {
    left = { described: await describable(temporal, workflowIds), listed: await listedRuns(temporal, workflowIds) };
    if (left.described.length === 0 && left.listed.length === 0) break;
    await sleep(500);
  }
  return left;
}
