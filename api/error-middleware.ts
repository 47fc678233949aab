import type { Context, Next } from 'koa';
import { engineClassifier, type Classify } from '../core/engine-errors.js';
import { InvalidRequestError, NotFoundError, QuireError } from '../core/errors.js';
import type { LimitCheck, LimitState, Limiter, Spent } from '../core/limits/index.js';
import type { Logger } from '../core/logger.js';
import { HttpError } from './http-error.js';

/** Routers answer a path they know with a method they do not (TRACE, DELETE…) without a body; give it ours. */
function bareStatusError(ctx: Context): QuireError {
  const allow = ctx.response.get('Allow');
  if ((ctx.status === 405 || ctx.status === 501) && allow) {
    return new HttpError(405, 'method_not_allowed', `method ${ctx.method} is not allowed here; allowed: ${allow}`, undefined, { Allow: allow });
  }
  if (ctx.status === 404 || ctx.status === 501) return new HttpError(404, 'not_found', 'no such route');
  if (ctx.status < 500) return new HttpError(ctx.status, 'invalid_request', `request rejected (${ctx.status})`);
  return internal();
}

export function setRateLimitHeaders(ctx: Context, state: LimitState): void {
  ctx.set('RateLimit-Limit', String(state.limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, state.remaining)));
  ctx.set('RateLimit-Reset', String(state.resetSeconds));
}

/**
 * Gives back what a request spent when it is refused after spending (see README, Rate limits),
 * and takes its `RateLimit-*` headers off: they told of a unit the refusal no longer spends.
 */
export async function giveBackLimit(ctx: Context, limiter: Pick<Limiter, 'giveBack'>, spent: Spent): Promise<void> {
  ctx.remove('RateLimit-Limit');
  ctx.remove('RateLimit-Remaining');
  ctx.remove('RateLimit-Reset');
  await limiter.giveBack(spent);
}

/**
 * Spends one unit of each check (setting the `RateLimit-*` headers), then does the work it pays
 * for. When the work is refused (it throws: an unknown thread, a missing page, an engine down, any
 * 4xx or 5xx), the unit is given back and the headers taken off before the error is answered, so
 * only a request Quire accepts spends (see README, Rate limits). Everything that can be checked
 * before counting (the key, the domain, the body) is checked by the caller first.
 */
export async function spendLimit<T>(ctx: Context, limiter: Pick<Limiter, 'consume' | 'giveBack'>, checks: LimitCheck[], work: () => Promise<T>): Promise<T> {
  const spent = await limiter.consume(checks);
  setRateLimitHeaders(ctx, spent);
  try {
    return await work();
  } catch (err) {
    await giveBackLimit(ctx, limiter, spent);
    throw err;
  }
}

/** The body of an error response, built from the classified error. */
export type ErrorBody = (error: QuireError) => unknown;

export const quireErrorBody: ErrorBody = (e) => ({ error: e.message, code: e.code, ...(e.details ? { details: e.details } : {}) });

/** A request body that is not JSON: its own class, so a JSON-RPC endpoint can answer it as a parse error. */
export class BodyNotJsonError extends InvalidRequestError {
  override name = 'BodyNotJsonError';
  constructor() {
    super('request body is not valid JSON (an object or an array)');
  }
}
const errorBodies = new WeakMap<Context, ErrorBody>();

/**
 * Answers the errors of every request under a path prefix in that protocol's wire format (the
 * OpenAI-compatible endpoint's, MCP's), from the first middleware on: a body that cannot be read
 * is refused before any router runs. Status, headers and logging stay this middleware's.
 */
export function answerErrorsUnder(formats: ReadonlyArray<{ prefix: string; body: ErrorBody }>) {
  return function errorFormat(ctx: Context, next: Next) {
    const format = formats.find((f) => ctx.path.startsWith(f.prefix));
    if (format) errorBodies.set(ctx, format.body);
    return next();
  };
}

/** The response headers of an error: its own, and `Retry-After` when it says when to retry. */
export function errorHeaders(e: QuireError): Record<string, string> {
  return { ...e.headers, ...(e.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(e.retryAfterSeconds))) }) };
}

/**
 * Turns anything thrown into the one JSON error shape of API.md, by class:
 * a QuireError answers as it says; an engine's failure is classified by that
 * engine's `classify` (core/engine-errors); anything else is a defect, 500
 * `internal`, logged, with no internals in the message.
 */
/** What the engine said, one line: the driver's message under Quire's own. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

export function errorMiddleware(logger: Logger, classify: Classify = engineClassifier()) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status >= 400 && ctx.body == null) throw bareStatusError(ctx);
    } catch (err) {
      const e = toQuireError(err, classify);
      // An engine that is down is the operator's news once per line, not a stack per request.
      if (e.status === 503) logger.warn({ requestId: ctx.state.requestId, code: e.code, reason: reasonOf(err) }, 'request refused: unavailable');
      else if (e.status >= 500) logger.error({ err, requestId: ctx.state.requestId, code: e.code }, 'request failed');
      ctx.status = e.status;
      ctx.set(errorHeaders(e));
      ctx.body = (errorBodies.get(ctx) ?? quireErrorBody)(e);
    }
  };
}

const internal = () => new QuireError(500, 'internal', 'internal error');

/** The QuireError an error answers as; never reads its message. */
export function toQuireError(err: unknown, classify: Classify = engineClassifier()): QuireError {
  if (err instanceof QuireError) return err;
  // http-errors (the body parser's, the router's) keeps `status` and `expose` on the prototype: read them, do not spread.
  const field = (name: string): unknown => (typeof err === 'object' && err !== null ? Reflect.get(err, name) : undefined);
  const status = field('status') ?? field('statusCode');
  // Only http-errors expose a status meant for the client; an engine client's `status` (Qdrant's, the model provider's) is about our request, not theirs.
  if (field('expose') === true && typeof status === 'number' && status >= 400 && status < 500) return requestError(status, field('type'), err);
  // The JSON body parser (co-body) marks its parse failures 400 without `expose`: still the request's fault.
  if (err instanceof SyntaxError && status === 400) return requestError(status, 'entity.parse.failed', err);
  return classify(err) ?? internal();
}

function requestError(status: number, type: unknown, err: unknown): QuireError {
  if (status === 413 || type === 'entity.too.large') return new HttpError(413, 'payload_too_large', 'request body too large');
  if (status === 415) return new HttpError(415, 'unsupported_media_type', 'request body must be application/json with no Content-Encoding other than gzip, deflate or br');
  if (status === 400 && (type === 'entity.parse.failed' || err instanceof SyntaxError)) {
    return new BodyNotJsonError();
  }
  if (status === 404) return new NotFoundError();
  // The status is right; the library's wording is not ours to show.
  return new HttpError(status, 'invalid_request', `request rejected (${status})`);
}
