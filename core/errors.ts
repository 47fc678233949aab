/**
 * Quire's own errors: each class carries the HTTP status and the stable
 * machine code a client sees, so the API's one error middleware maps an error
 * by its class and never reads its message. Engine failures (a database that
 * is busy, Redis or Temporal down, a model that failed) become one of these
 * where they are caught, through each engine's `classify`.
 */

/** One broken rule of a request: the field (`path`) and what is wrong with it. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface QuireErrorOptions extends ErrorOptions {
  details?: ErrorDetail[] | undefined;
  /** Response headers the error implies (`Allow`, the `RateLimit-*` of a spent limit). */
  headers?: Record<string, string> | undefined;
  /** Seconds a client should wait before retrying; sent as `Retry-After`. */
  retryAfterSeconds?: number | undefined;
}

/** What a client should wait before retrying a request an engine could not serve. */
export const ENGINE_RETRY_AFTER_SECONDS = 5;

/**
 * The base of every error Quire answers on purpose. `expose`: the message is
 * written for the client (always, for these classes; only a defect, which is
 * not a QuireError, is hidden behind `internal`).
 */
export class QuireError extends Error {
  override name = 'QuireError';
  readonly expose: boolean = true;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: QuireErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
    this.headers = options.headers;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** 400: a parameter or the body breaks a rule; `details` names each field. */
export class InvalidRequestError extends QuireError {
  override name = 'InvalidRequestError';
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'invalid_request', message, { details });
  }
}

/** 401: no key, or one Quire does not know. */
export class UnauthorizedError extends QuireError {
  override name = 'UnauthorizedError';
  constructor(message: string) {
    super(401, 'unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

/** 403: a valid key that may not do this (the other kind of key, an origin not allowed). */
export class ForbiddenError extends QuireError {
  override name = 'ForbiddenError';
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

/** 404: unknown, or another organisation's. */
export class NotFoundError extends QuireError {
  override name = 'NotFoundError';
  constructor(what = 'resource') {
    super(404, 'not_found', `${what} not found`);
  }
}

/** 409: the resource's state does not allow it (an archived or ended job). */
export class ConflictError extends QuireError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/** The engines a request can find down or busy, named in logs and in the 503's message. */
export type Engine = 'database' | 'redis' | 'workflow engine' | 'search engine' | 'model' | 'forge' | 'network';

/** 503: an engine the request needs is down or busy; the client retries after `Retry-After`. */
export class UnavailableError extends QuireError {
  override name = 'UnavailableError';
  constructor(
    readonly engine: Engine,
    message = `the ${engine} is unavailable or busy; retry shortly`,
    options: { retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(503, 'unavailable', message, { retryAfterSeconds: options.retryAfterSeconds ?? ENGINE_RETRY_AFTER_SECONDS, cause: options.cause });
  }
}

/** 503: the request needs a language model and none is configured; it cannot work until an operator sets one. */
export class ModelNotConfiguredError extends QuireError {
  override name = 'ModelNotConfiguredError';
  constructor() {
    super(
      503,
      'model_not_configured',
      'no language model is configured: set QUIRE_MODEL_BASE_URL, QUIRE_MODEL_API_KEY and QUIRE_MODEL, then restart Quire',
      // Configuring a model takes an operator, not seconds: a client need not poll fast.
      { retryAfterSeconds: 300 },
    );
  }
}

/** 502: an engine answered, but with a failure (the model, the forge); `code` says which (`model_failed`). */
export class UpstreamFailedError extends QuireError {
  override name = 'UpstreamFailedError';
  constructor(
    readonly engine: Engine,
    code: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(502, code, message, options);
  }
}

/** 504: an engine did not answer in time. */
export class EngineTimeoutError extends QuireError {
  override name = 'EngineTimeoutError';
  constructor(
    readonly engine: Engine,
    options: { cause?: unknown } = {},
  ) {
    super(504, 'timeout', `the ${engine} did not answer in time`, options);
  }
}

/**
 * What went wrong at the bottom of an error's causes (a refused connection, a failed login), on one
 * line: for a start-up or command-line message that names the engine itself.
 */
export function rootReason(err: unknown): string {
  let at = err;
  while (at instanceof Error && at.cause instanceof Error) at = at.cause;
  // A connection to a name with several addresses fails with one error per address, and no message of its own.
  const message =
    at instanceof AggregateError && !at.message
      ? [...new Set(at.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))))].join('; ')
      : at instanceof Error
        ? at.message || ('code' in at && typeof at.code === 'string' ? at.code : '')
        : String(at);
  return (message || 'no answer').split('\n')[0] ?? '';
}
