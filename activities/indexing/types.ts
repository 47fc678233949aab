import type { BatchSummary } from '../../core/retrieval/index.js';

/** What the indexing workflow and its activities exchange: ids, counts and paths, never page text. */
export interface IndexDomainInput {
  domainId: string;
}

export interface PreparedDomain {
  /** Folder of the checked-out docs on the worker's disk. */
  docsRoot: string;
  /** The commit checked out, when the source is in git. */
  commit?: string;
  /** How many page files `docsRoot` holds: batches list them themselves, by position (a list of 45,000 paths passed Temporal's 2 MB payload limit). */
  pageCount?: number;
  /** Page files relative to `docsRoot`: what runs prepared before `pageCount` carry in their histories. */
  files?: string[];
  includeHidden: boolean;
  /** The worker's `QUIRE_INDEX_HEARTBEAT_SECONDS`: the workflow sets the page activities' heartbeat timeout from it. */
  heartbeatSeconds: number;
}

export interface IndexBatchInput {
  domainId: string;
  docsRoot: string;
  /** The batch's page files by their position in the sorted listing of `docsRoot` (fixed for a checkout). */
  first?: number;
  count?: number;
  /** Or the files themselves (histories of runs from before positions). */
  files?: string[];
  includeHidden: boolean;
}

export type IndexBatchResult = BatchSummary;
