import type { Context, Next } from 'koa';
import { LimitStoreUnavailableError, RateLimitedError, type LimitState } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { engineTrouble } from './engine-errors.js';
import { HttpError } from './http-error.js';

/** What a client should wait before retrying a request an engine could not serve. */
export const ENGINE_RETRY_AFTER_SECONDS = 5;

/** Routers answer a path they know with a method they do not (TRACE, DELETE…) without a body; give it ours. */
function bareStatusError(ctx: Context): HttpError {
  const allow = ctx.response.get('Allow');
  if ((ctx.status === 405 || ctx.status === 501) && allow) {
    return new HttpError(405, 'method_not_allowed', `method ${ctx.method} is not allowed here; allowed: ${allow}`, undefined, { Allow: allow });
  }
  if (ctx.status === 404 || ctx.status === 501) return new HttpError(404, 'not_found', 'no such route');
  return toHttpError(Object.assign(new Error('empty error response'), { status: ctx.status, expose: ctx.status < 500 }));
}

export function setRateLimitHeaders(ctx: Context, state: LimitState): void {
  ctx.set('RateLimit-Limit', String(state.limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, state.remaining)));
  ctx.set('RateLimit-Reset', String(state.resetSeconds));
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
      if (ctx.status >= 400 && ctx.body == null) throw bareStatusError(ctx);
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
  if (err instanceof LimitStoreUnavailableError) {
    return new HttpError(503, 'unavailable', 'rate-limit store unavailable', undefined, { 'Retry-After': String(ENGINE_RETRY_AFTER_SECONDS) });
  }
  // http-errors keeps `status` and `expose` on the prototype: read them, do not spread.
  const field = (name: string): unknown => (typeof err === 'object' && err !== null ? Reflect.get(err, name) : undefined);
  const status = field('status') ?? field('statusCode');
  // Only http-errors (the body parser's, the router's) expose a status meant for the client;
  // an engine client's `status` (Qdrant's, the model provider's) is about our request, not theirs.
  if (field('expose') === true && typeof status === 'number' && status >= 400 && status < 500) return requestError(status, field('type'), err);
  const trouble = engineTrouble(err);
  if (trouble) {
    return new HttpError(503, 'unavailable', trouble.message, undefined, { 'Retry-After': String(ENGINE_RETRY_AFTER_SECONDS) });
  }
  return new HttpError(500, 'internal', 'internal error');
}

function requestError(status: number, type: unknown, err: unknown): HttpError {
  if (status === 413 || type === 'entity.too.large') return new HttpError(413, 'payload_too_large', 'request body too large');
  if (status === 415) return new HttpError(415, 'unsupported_media_type', 'request body must be application/json with no Content-Encoding other than gzip, deflate or br');
  if (status === 400 && (type === 'entity.parse.failed' || err instanceof SyntaxError)) {
    return new HttpError(400, 'invalid_request', 'request body is not valid JSON');
  }
  // The status is right; the library's wording is not ours to show.
  return new HttpError(status, 'invalid_request', `request rejected (${status})`);
}
