/**
 * The indexing workflow's contract: workflow type and id scheme, input and
 * result, the progress query and the failure type. Imports only
 * `@temporalio/common` (through `define.ts`) and types.
 */
import type { WithWorkflowArgs, WorkflowSignalWithStartOptions } from '@temporalio/client';
import type { InferOutput } from 'valibot';
import type { BrokenPage } from '../retrieval/index-docs.js';
import { defineQuery, defineSignal } from './define.js';
// Types only (erased): the schema is a value of a valibot module the sandbox must not bundle.
import type { IndexProgressSchema } from './index-progress-schema.js';
import { DOMAIN_ID } from './search-attributes.js';

export const INDEX_DOMAIN_WORKFLOW = 'indexDomainWorkflow';
export type IndexDomainWorkflow = (input: IndexDomainWorkflowInput) => Promise<IndexDomainResult>;

export interface IndexDomainWorkflowInput {
  domainId: string;
}

/** A run's progress, as its query answers it; declared once, as valibot entries in index-progress-schema.ts. */
export type IndexProgress = InferOutput<typeof IndexProgressSchema>;

/** What a running page batch heartbeats (and `quire index` shows): how far it got. */
export interface IndexBatchHeartbeat {
  /** Page files of the batch read so far. */
  pages: number;
  /** Chunks of the batch with their vector (from the cache or the model). */
  embedded: number;
  /** Chunks of the batch needing a vector, as far as the batch has read. */
  toEmbed: number;
}

export interface IndexDomainResult {
  domainId: string;
  /** The commit of the docs indexed, when the source is in git (absent from runs before it was recorded). */
  commit?: string;
  pages: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  chunks: number;
  /** Chunks written with a dense vector (0 when keyword only). */
  vectors: number;
  /** Of those, how many came from the vector cache instead of the model. */
  cachedVectors: number;
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
 * What every start of a domain's indexing sends: a run under way counts it, and once done runs
 * again when one came after it checked out the docs, so a change pushed meanwhile is indexed.
 */
export const reindexSignal = defineSignal('reindex');

/**
 * How every starter (the API, `quire index`, `npm start`) starts a domain's indexing, with
 * `signalWithStart`: the run already going is joined and told (`reindexSignal`), a new run follows
 * a closed one (ALLOW_DUPLICATE).
 */
export function indexDomainStartOptions(domainId: string, taskQueue: string): WithWorkflowArgs<IndexDomainWorkflow, WorkflowSignalWithStartOptions> {
  return {
    taskQueue,
    workflowId: indexWorkflowId(domainId),
    args: [{ domainId }],
    signal: reindexSignal,
    signalArgs: [],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: DOMAIN_ID, value: domainId }],
    // What the Temporal UI's list says of the run, beside its id.
    staticSummary: `index the docs of domain ${domainId}`,
  };
}

/**
 * Failure types of the indexing activities: what a failed run's status reports
 * it by (`errorCode`), so no one reads its message to learn what went wrong.
 * The workflow does not retry an unknown domain; the docs folder's failures are
 * thrown non-retryable, and a checkout that failed is retried.
 */
export const INDEXING_ERROR = {
  unknownDomain: 'UnknownDomainError',
  /** The source could not be fetched: unreachable, no such repository or branch, credentials refused, or a folder source that is not there. */
  checkoutFailed: 'CheckoutFailedError',
  /** The source was fetched, but the domain's docs folder is not in it (at the commit fetched). */
  docsFolderMissing: 'DocsFolderMissingError',
  /** The docs folder leads outside the repository (`..`, or a link out of it). */
  docsFolderOutside: 'DocsFolderOutsideError',
} as const;

/**
 * Why an indexing run did not complete, as its status reports it (`errorCode`): the failure's type
 * where an activity said it, the embedding model's failures, and how Temporal ended a run otherwise.
 */
export const INDEX_ERROR_CODES = [
  'unknown_domain',
  'checkout_failed',
  'docs_folder_missing',
  'docs_folder_outside',
  'model_credentials',
  'model_failed',
  'model_unavailable',
  'timed_out',
  'terminated',
  'canceled',
  'internal',
] as const;
export type IndexErrorCode = (typeof INDEX_ERROR_CODES)[number];
