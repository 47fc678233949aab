/**
 * The indexing workflow's contract: workflow type and id scheme, input and
 * result, the progress query and the failure type. Imports only
 * `@temporalio/common` (through `define.ts`) and types.
 */
import type { WorkflowStartOptions } from '@temporalio/client';
import type { BrokenPage } from '../retrieval/index-docs.js';
import { defineQuery } from './define.js';
import { DOMAIN_ID } from './search-attributes.js';

export const INDEX_DOMAIN_WORKFLOW = 'indexDomainWorkflow';
export type IndexDomainWorkflow = (input: IndexDomainWorkflowInput) => Promise<IndexDomainResult>;

export interface IndexDomainWorkflowInput {
  domainId: string;
}

export interface IndexProgress {
  phase: 'checkout' | 'indexing' | 'cleanup' | 'done';
  done: number;
  total: number;
}

export interface IndexDomainResult {
  domainId: string;
  pages: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  chunks: number;
  seconds: number;
  /** At most the first 50 broken pages; `brokenCount` has the full number. */
  broken: BrokenPage[];
  brokenCount: number;
}

export const indexProgressQuery = defineQuery<IndexProgress>('indexProgress');

/** One indexing run per domain at a time: starters reuse this id. */
export function indexWorkflowId(domainId: string): string {
  return `index-${domainId}`;
}

/**
 * How every starter (the API, `quire index`, `npm start`) starts a domain's indexing: the run
 * already going is joined (USE_EXISTING), a new run follows a closed one (ALLOW_DUPLICATE).
 */
export function indexDomainStartOptions(domainId: string, taskQueue: string): WorkflowStartOptions<IndexDomainWorkflow> {
  return {
    taskQueue,
    workflowId: indexWorkflowId(domainId),
    args: [{ domainId }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: DOMAIN_ID, value: domainId }],
  };
}

/** Failure types of the indexing activities; the workflow does not retry these. */
export const INDEXING_ERROR = { unknownDomain: 'UnknownDomainError' } as const;
