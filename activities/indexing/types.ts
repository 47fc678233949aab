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
  /** Page files relative to `docsRoot`. */
  files: string[];
  includeHidden: boolean;
  /** The worker's `QUIRE_INDEX_HEARTBEAT_SECONDS`: the workflow sets the page activities' heartbeat timeout from it. */
  heartbeatSeconds: number;
}

export interface IndexBatchInput {
  domainId: string;
  docsRoot: string;
  files: string[];
  includeHidden: boolean;
}

export type IndexBatchResult = BatchSummary;
