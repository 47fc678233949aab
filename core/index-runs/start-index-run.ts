import type { Client } from '@temporalio/client';
import { INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions, type IndexDomainWorkflow } from '../contracts/index-domain.js';

/**
 * Starts indexing the domain, the one way every starter does (the API's routes, the push hook, a
 * poll): a run in progress is joined, not doubled (the workflow id is the domain's), and once done
 * runs again for what changed since it checked out. Answers the run that was started or joined.
 */
export async function startIndexRun(temporal: Client, taskQueue: string, domainId: string): Promise<{ workflowId: string; runId: string }> {
  const started = await temporal.workflow.signalWithStart<IndexDomainWorkflow>(INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions(domainId, taskQueue));
  return { workflowId: started.workflowId, runId: started.signaledRunId };
}
