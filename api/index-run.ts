import { ApplicationFailure, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import {
  AGENT_ERROR,
  INDEXING_ERROR,
  indexProgressQuery,
  indexWorkflowId,
  type IndexDomainWorkflow,
  type IndexErrorCode,
  type IndexProgress,
} from '../core/contracts/index.js';
import { rootReason } from '../core/errors.js';
import { polledRunMemo, type PolledRunMemo } from '../core/index-runs/index.js';
import { scrubSecrets } from '../core/logger.js';
import { withoutServerPaths } from '../core/server-paths.js';
import { notFound } from './http-error.js';

/** Starting a run lives in core, as a poll's activity starts runs too; the API's routes import it from here. */
export { startIndexRun } from '../core/index-runs/index.js';

/** How long a progress query may wait for a worker before the answer goes without it. */
const PROGRESS_QUERY_WAIT_MS = 2000;

/** A domain's latest indexing run as Temporal describes it, with its progress and result where they can be had. */
export interface IndexRun {
  workflowId: string;
  runId: string;
  /** Temporal's status in lower case: running, completed, failed, terminated, … */
  status: string;
  startedAt: Date;
  closedAt: Date | undefined;
  /** A running run's progress; null when no worker answered the query in time. */
  progress: IndexProgress | null;
  /** A completed run's result (pages and chunks indexed, the commit). */
  result: Awaited<ReturnType<IndexDomainWorkflow>> | undefined;
  /** Why a run that did not complete ended (its failure, the terminate reason, the timeout), in one line. */
  error: string | undefined;
  /** What kind of failure that was (see `indexErrorCode`); undefined for a run that completed or runs. */
  errorCode: IndexErrorCode | undefined;
  /** The head a poll started the run for, and which try of it in a row; undefined for a run started otherwise. */
  polled: PolledRunMemo | undefined;
}

/** The activities' failure types (and the model's, when embedding failed), as the run's status reports them. */
const CODE_OF_TYPE: Record<string, IndexErrorCode> = {
  [INDEXING_ERROR.unknownDomain]: 'unknown_domain',
  [INDEXING_ERROR.checkoutFailed]: 'checkout_failed',
  [INDEXING_ERROR.docsFolderMissing]: 'docs_folder_missing',
  [INDEXING_ERROR.docsFolderOutside]: 'docs_folder_outside',
  [AGENT_ERROR.badCredentials]: 'model_credentials',
  [AGENT_ERROR.modelRequestInvalid]: 'model_failed',
  [AGENT_ERROR.modelUnavailable]: 'model_unavailable',
};

/**
 * What kind of failure ended a run, by the type of the application failure at
 * the root of its chain (the activity's), never by its message: a run that
 * was not failed says how Temporal ended it, and a failure of no known type
 * (a defect, a disk error) is `internal`.
 */
export function indexErrorCode(status: string, err: unknown): IndexErrorCode {
  if (status === 'timed_out' || status === 'terminated' || status === 'canceled') return status;
  let type: string | undefined;
  for (let at = err; at instanceof Error; at = at.cause) if (at instanceof ApplicationFailure && at.type) type = at.type;
  return (type && CODE_OF_TYPE[type]) || 'internal';
}

/**
 * The run's progress, or null when no worker answers within `ms`. The query is cancelled then,
 * not left retrying on the connection after the status is answered (it would retry until its
 * deadline, and fail in a timer once the connection closes).
 */
async function progressWithin(temporal: Client, run: WorkflowHandle<IndexDomainWorkflow>, ms: number): Promise<IndexProgress | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await temporal.withAbortSignal(controller.signal, () => run.query(indexProgressQuery));
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the domain's latest indexing run (404 when it never ran). The progress query needs a worker,
 * so it is given 2 s and may come back null; the result is read from that run only (a run started
 * meanwhile is not waited for), and a run that cannot give one has none: neither ever fails the request.
 */
export async function readIndexRun(temporal: Client, domainId: string): Promise<IndexRun> {
  const described = await temporal.workflow
    .getHandle<IndexDomainWorkflow>(indexWorkflowId(domainId))
    .describe()
    .catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError) throw notFound(`indexing of domain '${domainId}'`);
      throw err;
    });
  const run = temporal.workflow.getHandle<IndexDomainWorkflow>(described.workflowId, described.runId);
  const status = described.status.name.toLowerCase();
  const result = status === 'completed' ? await run.result().catch(() => undefined) : undefined;
  // A run that ended otherwise says why through its result's failure (messages written for the Temporal UI), credentials
  // scrubbed and, should a message name one (a failure of no known kind, a run from before messages were written so), no server path.
  const failure = ['failed', 'terminated', 'timed_out', 'canceled'].includes(status)
    ? await run.result().then(
        () => undefined,
        (err: unknown) => ({ error: withoutServerPaths(scrubSecrets(rootReason(err))).split('\n')[0]!.slice(0, 500), errorCode: indexErrorCode(status, err) }),
      )
    : undefined;
  const progress = status === 'running' ? await progressWithin(temporal, run, PROGRESS_QUERY_WAIT_MS) : null;
  const polled = polledRunMemo(described.memo);
  return { workflowId: described.workflowId, runId: described.runId, status, startedAt: described.startTime, closedAt: described.closeTime, progress, result, error: failure?.error, errorCode: failure?.errorCode, polled };
}
