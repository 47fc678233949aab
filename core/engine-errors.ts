import { isGrpcServiceError, NamespaceNotFoundError, ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { QdrantClientResourceExhaustedError, QdrantClientTimeoutError, QdrantClientUnexpectedResponseError } from '@qdrant/js-client-rest';
import { ApiError as QdrantApiError } from '@qdrant/openapi-typescript-fetch';
import Database from 'better-sqlite3';
import { ReplyError } from 'ioredis';
import { APIConnectionError, InternalServerError, RateLimitError } from 'openai';
import { SQLITE_UNAVAILABLE } from './db/errors.js';
import { QuireError, UnavailableError, UpstreamFailedError } from './errors.js';
import { ModelError } from './model/errors.js';

/**
 * One `classify` per engine: each recognises its client's failures by class
 * and structured code (never by message text) and answers the QuireError a
 * request should end with, or undefined when the error is not that engine
 * saying it is down or busy (then it is a defect: 500).
 */
export type Classify = (err: unknown) => QuireError | undefined;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const stringField = (e: unknown, name: string): string | undefined => (isRecord(e) && typeof e[name] === 'string' ? e[name] : undefined);

/** gRPC statuses for "too much now": RESOURCE_EXHAUSTED (rate limits, an in-flight update), FAILED_PRECONDITION (a stalled worker)… */
const GRPC_BUSY = new Set([8, 9]);
/** …and for "not reachable now": CANCELLED, DEADLINE_EXCEEDED, ABORTED, UNAVAILABLE. */
const GRPC_DOWN = new Set([1, 4, 10, 14]);

/**
 * Temporal's client: a gRPC status of a busy or unreachable service is 503; any other status is
 * Temporal refusing the request (a namespace without Quire's search attributes, a namespace that
 * does not exist, a key without permission), 502 `workflow_engine_refused`, whose cause the log
 * keeps. A ServiceError with no status never got an answer.
 */
export const classifyTemporal: Classify = (err) => {
  if (isGrpcServiceError(err)) {
    if (GRPC_BUSY.has(err.code) || GRPC_DOWN.has(err.code)) return new UnavailableError('workflow engine', undefined, { cause: err });
    return new UpstreamFailedError('workflow engine', 'workflow_engine_refused', `the workflow engine refused the request (gRPC status ${err.code}); the service's log has its reason`, { cause: err });
  }
  // The client's own name for NOT_FOUND of the namespace it was configured with.
  if (err instanceof NamespaceNotFoundError) {
    return new UpstreamFailedError('workflow engine', 'workflow_engine_refused', 'the workflow engine refused the request: its namespace does not exist', { cause: err });
  }
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
    return new UnavailableError('workflow engine', 'no worker took the update in time; retry shortly', { cause: err });
  }
  // An update its workflow failed for a reason no route names (a refusal the route knows, such as
  // an archived job, is answered there): the workflow could not record it now, say while its
  // activity cannot reach the database. Nothing was accepted; the client may send it again.
  if (err instanceof WorkflowUpdateFailedError) {
    return new UnavailableError('workflow engine', "the job's workflow could not take the request now; retry shortly", { cause: err });
  }
  if (err instanceof ServiceError) {
    if (isGrpcServiceError(err.cause)) return classifyTemporal(err.cause);
    return new UnavailableError('workflow engine', undefined, { cause: err });
  }
  return undefined;
};


/** better-sqlite3: its SqliteError's result code. */
export const classifySqlite: Classify = (err) => {
  if (err instanceof Database.SqliteError && SQLITE_UNAVAILABLE.test(err.code)) {
    return new UnavailableError('database', undefined, { cause: err });
  }
  return undefined;
};

/** Redis error replies that mean "later" (by RESP, a reply error starts with its code). */
const REDIS_BUSY_CODES = new Set(['LOADING', 'BUSY', 'MASTERDOWN', 'READONLY', 'TRYAGAIN', 'CLUSTERDOWN', 'NOREPLICAS', 'MISCONF', 'OOM']);

/**
 * ioredis: a busy reply, its retries spent, or (with no connection) any
 * failure at all. ioredis reports a closed connection with plain Errors, so
 * the client's own state is the evidence: a command that failed while the
 * client was not `ready` failed because Redis was unreachable.
 */
export function classifyRedis(client: { status: string } | undefined): Classify {
  return (err) => {
    if (err instanceof ReplyError) {
      const code = stringField(err, 'message')?.split(' ', 1)[0] ?? '';
      return REDIS_BUSY_CODES.has(code) ? new UnavailableError('redis', undefined, { cause: err }) : undefined;
    }
    if (stringField(err, 'name') === 'MaxRetriesPerRequestError') return new UnavailableError('redis', undefined, { cause: err });
    if (client && client.status !== 'ready' && err instanceof Error) return new UnavailableError('redis', undefined, { cause: err });
    return undefined;
  };
}

/** Socket and DNS failures of any client (Node's `code`, undici's `UND_ERR_*`). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
/** The machine's own limits (disk, descriptors) reached by the embedded stores. */
const RESOURCE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY']);

/** Node and undici: a connection that failed, or the machine out of disk or descriptors. */
export const classifyNetwork: Classify = (err) => {
  const code = stringField(err, 'code');
  if (code && SOCKET_CODES.has(code)) return new UnavailableError('network', 'a required engine could not be reached; retry shortly', { cause: err });
  if (code && RESOURCE_CODES.has(code)) return new UnavailableError('database', 'the data store is out of resources; retry shortly', { cause: err });
  return undefined;
};

/**
 * The model provider, through the `openai` client (embeddings) or Quire's
 * model port: unreachable or busy is 503; a provider that answered with a
 * failure is 502 `model_failed`.
 */
export const classifyModel: Classify = (err) => {
  if (err instanceof APIConnectionError || err instanceof RateLimitError || err instanceof InternalServerError) {
    return new UnavailableError('model', undefined, { cause: err });
  }
  if (err instanceof ModelError) {
    return err.retryable
      ? new UnavailableError('model', undefined, { cause: err })
      : new UpstreamFailedError('model', 'model_failed', `the language model refused the request${err.status ? ` (HTTP ${err.status})` : ''}`, { cause: err });
  }
  return undefined;
};

/**
 * Qdrant's client: its timeout and back-pressure classes, or an answer of 429 or 5xx (the
 * `ApiError` of the fetch layer it is built on, which it does not re-export), are 503. Any other
 * answer is Qdrant refusing the request: a collection deleted or never created for this domain,
 * an API key it does not accept, vectors of another size than the collection's. None of that is
 * the client's doing, and only an operator can mend it: 502 `search_engine_refused`, whose cause
 * (Qdrant's own words) the log keeps.
 */
export const classifyQdrant: Classify = (err) => {
  if (err instanceof QdrantClientTimeoutError || err instanceof QdrantClientResourceExhaustedError) {
    return new UnavailableError('search engine', undefined, { cause: err });
  }
  const status = err instanceof QdrantApiError ? err.status : undefined;
  if (status === 429 || (status !== undefined && status >= 500)) return new UnavailableError('search engine', undefined, { cause: err });
  if (status !== undefined || err instanceof QdrantClientUnexpectedResponseError) {
    return new UpstreamFailedError('search engine', 'search_engine_refused', `the search engine refused the request${status ? ` (HTTP ${status})` : ''}; the service's log has its reason`, { cause: err });
  }
  return undefined;
};

/**
 * Every engine's classify, tried on the error and down its `cause` chain (the
 * Temporal client wraps gRPC errors, fetch wraps socket errors). A QuireError
 * anywhere in the chain is the answer as it stands.
 */
export function classifyEngines(classifiers: Classify[]): Classify {
  return (err) => {
    let e: unknown = err;
    for (let depth = 0; isRecord(e) && depth < 8; depth++) {
      if (e instanceof QuireError) return e;
      for (const classify of classifiers) {
        const found = classify(e);
        if (found) return found;
      }
      e = e.cause;
    }
    return undefined;
  };
}

/** The engines every process talks to; Redis's classify needs its client, when there is one. */
export function engineClassifier(redis?: { status: string }): Classify {
  return classifyEngines([classifyTemporal, classifySqlite, classifyRedis(redis), classifyModel, classifyQdrant, classifyNetwork]);
}
