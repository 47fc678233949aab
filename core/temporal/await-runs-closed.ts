import type { Client } from '@temporalio/client';
import { runsOfFilter } from './delete-runs.js';

/**
 * Waits, for `withinMs` at most, until the open runs of the workflow ids have closed by themselves:
 * those visibility lists as running, and each id's latest in `closing` (one started a moment ago
 * may not be listed yet). A run that fails, or is not closed in time, is no error here; a list
 * Temporal refuses (Temporal down) is.
 */
export async function awaitRunsClosed(temporal: Client, workflowIds: readonly string[], closing: readonly string[], withinMs: number): Promise<void> {
  if (workflowIds.length === 0) return;
  const open: Array<{ workflowId: string; runId?: string }> = closing.map((workflowId) => ({ workflowId }));
  for await (const run of temporal.workflow.list({ query: `(${runsOfFilter(workflowIds)}) AND ExecutionStatus = 'Running'` })) open.push(run);
  if (open.length === 0) return;
  const deadline = Date.now() + withinMs;
  // result() long-polls for the run's close event; the deadline ends the poll of one still open.
  await Promise.allSettled(open.map((run) => temporal.withDeadline(deadline, () => temporal.workflow.getHandle(run.workflowId, run.runId, { followRuns: false }).result())));
}
