import { isGrpcServiceError } from '@temporalio/client';

/** Why a request failed through no fault of its own: an engine it needs is down or busy. */
export interface EngineTrouble {
  message: string;
}

/** Temporal's gRPC codes for "too much now": RESOURCE_EXHAUSTED (in-flight update or rate limits), FAILED_PRECONDITION (a stalled worker). */
const GRPC_BUSY = new Set([8, 9]);
/** …and for "not reachable now": CANCELLED, DEADLINE_EXCEEDED, ABORTED, UNAVAILABLE. */
const GRPC_DOWN = new Set([1, 4, 10, 14]);
/** Socket errors of any engine client (Redis, Qdrant, the model provider, Temporal's transport). */
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
  'UND_ERR_SOCKET',
]);
/** The machine's own limits (disk, descriptors) reached by the embedded stores. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY']);
/** Redis replies that say "later": loading, busy script, failover, replica, memory. */
const REDIS_BUSY_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS|MISCONF|OOM)\b/;
/** ioredis: the connection died or is down, with the offline queue off. */
const REDIS_DOWN_MESSAGE = /^(Connection is closed|Stream isn't writeable|Command timed out)/;
/** Clients of HTTP engines (the `openai` package for embeddings, Qdrant's) reporting the engine busy or unreachable. */
const UPSTREAM_BUSY_NAMES = new Set([
  'MaxRetriesPerRequestError',
  'RateLimitError',
  'InternalServerError',
  'APIConnectionError',
  'APIConnectionTimeoutError',
  'QdrantClientTimeoutError',
  'QdrantClientResourceExhaustedError',
]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function troubleOf(e: Record<string, unknown>): EngineTrouble | undefined {
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  const code = e.code;
  if (isGrpcServiceError(e)) {
    if (GRPC_BUSY.has(e.code)) return { message: 'the workflow engine is busy; retry shortly' };
    if (GRPC_DOWN.has(e.code)) return { message: 'the workflow engine is unavailable or did not answer in time' };
    return undefined;
  }
  if (name === 'ServiceError' && /UNAVAILABLE|DEADLINE|Failed to connect/.test(message)) {
    return { message: 'the workflow engine is unavailable' };
  }
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return { message: 'a required engine is unavailable' };
  if (typeof code === 'string' && STORAGE_CODES.has(code)) return { message: 'the data store is out of resources' };
  if (UPSTREAM_BUSY_NAMES.has(name) || REDIS_DOWN_MESSAGE.test(message)) return { message: 'a required engine is unavailable' };
  if (name === 'ReplyError' && REDIS_BUSY_REPLY.test(message)) return { message: 'the key-value store is busy' };
  // Qdrant's fetch client: a 429 or 5xx from the engine itself.
  if (name === 'ApiError' && typeof e.status === 'number' && (e.status === 429 || e.status >= 500)) {
    return { message: 'the search engine is busy or unavailable' };
  }
  return undefined;
}

/**
 * The engine trouble behind an error, following its `cause` chain (the
 * Temporal client wraps gRPC errors; fetch wraps socket errors), or undefined
 * when the error is a defect rather than an engine being down or busy.
 */
export function engineTrouble(err: unknown): EngineTrouble | undefined {
  let e: unknown = err;
  for (let depth = 0; isRecord(e) && depth < 8; depth++) {
    const trouble = troubleOf(e);
    if (trouble) return trouble;
    e = e.cause;
  }
  return undefined;
}
