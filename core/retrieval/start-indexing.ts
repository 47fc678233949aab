import type { Client, WorkflowHandle } from '@temporalio/client';
import { DOMAIN_ID } from '../temporal/search-attributes.js';
import type { indexDomainWorkflow } from '../../workflows/index-domain.js';
import { indexWorkflowId } from '../../workflows/index-domain.js';

export interface StartedIndexing {
  workflowId: string;
  runId: string;
  handle: WorkflowHandle<typeof indexDomainWorkflow>;
}

/**
 * Starts the indexing workflow of a domain, or returns the run already going:
 * one run per domain at a time (workflow id `index-<domain>`), a new run once
 * the previous one has closed.
 */
export async function startIndexing(client: Client, taskQueue: string, domainId: string): Promise<StartedIndexing> {
  const handle = await client.workflow.start<typeof indexDomainWorkflow>('indexDomainWorkflow', {
    taskQueue,
    workflowId: indexWorkflowId(domainId),
    args: [{ domainId }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: DOMAIN_ID, value: domainId }],
  });
  return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId, handle };
}
