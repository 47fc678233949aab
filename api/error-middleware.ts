import type { Context, Next } from 'koa';
import { LimitStoreUnavailableError, RateLimitedError, type LimitState } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { HttpError } from './http-error.js';

export function setRateLimitHeaders(ctx: Context, state: LimitState): void {
  ctx.set('RateLimit-Limit', String(state.limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, state.remaining)));
  ctx.set('RateLimit-Reset', String(state.resetSeconds));
}

/** gRPC UNAVAILABLE / DEADLINE_EXCEEDED from Temporal, or a refused socket. */
function isEngineDown(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 14 || code === 4 || code === 'ECONNREFUSED') return true;
    if (/enableOfflineQueue|Connection is closed|MaxRetriesPerRequest/.test(String((e as Error).message))) return true;
    const name = (e as { name?: unknown }).name;
    if (name === 'ServiceError' && /UNAVAILABLE|DEADLINE/.test(String((e as Error).message))) return true;
  }
  return false;
}

/** The body of an error response, built from the classified error. */
export type ErrorBody = (error: HttpError) => unknown;

const quireErrorBody: ErrorBody = (e) => ({ error: e.message, code: e.code, ...(e.details ? { details: e.details } : {}) });
const errorBodies = new WeakMap<Context, ErrorBody>();

/**
 * Lets a router answer its errors in its clients' wire format (the
 * OpenAI-compatible endpoint); status, headers and logging stay this middleware's.
 */
export function answerErrorsAs(body: ErrorBody) {
  return function errorFormat(ctx: Context, next: Next) {
    errorBodies.set(ctx, body);
    return next();
  };
}

/** Turns anything thrown into the one JSON error shape of API.md; 5xx never leak internals. */
export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new HttpError(404, 'not_found', 'no such route');
    } catch (err) {
      const e = toHttpError(err);
      if (e.status >= 500) logger.error({ err, requestId: ctx.state.requestId }, 'request failed');
      ctx.status = e.status;
      for (const [k, v] of Object.entries(e.headers ?? {})) ctx.set(k, v);
      if (e.status === 401) ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = (errorBodies.get(ctx) ?? quireErrorBody)(e);
    }
  };
}

export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof RateLimitedError) {
    const s = err.state;
    return new HttpError(429, 'rate_limited', err.message, undefined, {
      'Retry-After': String(Math.max(1, s.resetSeconds)),
      'RateLimit-Limit': String(s.limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(s.resetSeconds),
    });
  }
  if (err instanceof LimitStoreUnavailableError) return new HttpError(503, 'unavailable', 'rate-limit store unavailable');
  const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  const type = (err as { type?: unknown }).type;
  if (status === 413 || type === 'entity.too.large') return new HttpError(413, 'payload_too_large', 'request body too large');
  if (status === 415) return new HttpError(415, 'unsupported_media_type', 'request body must be application/json');
  if (status === 400 && (type === 'entity.parse.failed' || err instanceof SyntaxError)) {
    return new HttpError(400, 'invalid_request', 'request body is not valid JSON');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Body-parser and router errors: the status is right, their wording is not ours to show.
    return new HttpError(status, 'invalid_request', `request rejected (${status})`);
  }
  if (isEngineDown(err)) return new HttpError(503, 'unavailable', 'a required engine is unavailable');
  return new HttpError(500, 'internal', 'internal error');
}
