import type { Client } from '@temporalio/client';
import { INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions, type IndexDomainWorkflow } from '../contracts/index-domain.js';
import type { PolledRunMemo } from './poll-backoff.js';

/**
 * Starts indexing the domain, the one way every starter does (the API's routes, the push hook, a
 * poll): a run in progress is joined, not doubled (the workflow id is the domain's), and once done
 * runs again for what changed since it checked out. Answers the run that was started or joined.
 * A poll gives the head it saw as the memo of a run it starts (a joined run keeps its own), so a
 * later poll knows which head a failed run was for.
 */
export async function startIndexRun(temporal: Client, taskQueue: string, domainId: string, polled?: PolledRunMemo): Promise<{ workflowId: string; runId: string }> {
  const options = indexDomainStartOptions(domainId, taskQueue);
  const started = await temporal.workflow.signalWithStart<IndexDomainWorkflow>(INDEX_DOMAIN_WORKFLOW, polled ? { ...options, memo: { ...polled } } : options);
  return { workflowId: started.workflowId, runId: started.signaledRunId };
}
