import type { WorkflowStartOptions } from '@temporalio/client';
import { workflowIdOf } from '../../core/jobs/index.js';
import { JOB_STATUS, PROJECT_ID } from '../../core/temporal/search-attributes.js';
import type { agentJobWorkflow, AgentJobInput } from '../../workflows/agent-job.js';

/**
 * How a job's workflow is started: the derived id, the memo `GET` reads without a worker, the
 * search attributes and the summary and details operators see in the Temporal UI.
 */
export function jobStartOptions(input: AgentJobInput, taskQueue: string): WorkflowStartOptions<typeof agentJobWorkflow> {
  const { job } = input;
  const firstPrompt = input.pending[0]?.prompt ?? '';
  return {
    taskQueue,
    workflowId: workflowIdOf(job.id),
    args: [input],
    memo: { job },
    typedSearchAttributes: [
      { key: PROJECT_ID, value: job.projectId },
      { key: JOB_STATUS, value: job.status },
    ],
    staticSummary: (firstPrompt.split('\n')[0] ?? '').slice(0, 200),
    staticDetails: `project: ${job.projectId}\nrepository: ${job.source.repository}\nref: ${job.source.ref}\nmodel: ${job.model || '(none configured)'}`,
  };
}
