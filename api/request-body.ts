import type { IncomingMessage } from 'node:http';
import type { Context, Middleware, Next, Request } from 'koa';
import { koaBody } from 'koa-body';
import { InvalidRequestError } from '../core/errors.js';
import { PLAIN_TEXT_JSON_PATH } from './analytics/page-view-routes.js';
import { toQuireError } from './error-middleware.js';
import { badRequest, HttpError } from './http-error.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(ctx: Context): boolean {
  return Boolean(ctx.get('Transfer-Encoding')) || Number(ctx.get('Content-Length') || 0) > 0;
}

/**
 * A request body must be JSON; an empty POST is allowed (the schema then names what is missing).
 * The page-view beacon alone may send its JSON as `text/plain`, as `navigator.sendBeacon` does.
 */
function requireJson(ctx: Context): void {
  const beacon = PLAIN_TEXT_JSON_PATH.test(ctx.path) && ctx.is('text/plain');
  if (BODY_METHODS.has(ctx.method) && hasBody(ctx) && !ctx.is('application/json') && !beacon) {
    throw new HttpError(415, 'unsupported_media_type', 'request body must be application/json');
  }
}

/** What nearly every client sends: plain JSON, its length known, nothing to inflate or transcode. */
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset="?utf-8"?)?\s*$/i;
/** What co-body's strict mode accepts: an object or an array. */
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;
/** A `__proto__` key, spelled plainly or with escapes: only then is the parsed body walked for one. */
const SUSPECT_PROTO = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"/;

/** The declared length of a body the short path reads, or undefined when koa-body must. */
export function plainJsonLength(req: IncomingMessage, limit: number): number | undefined {
  const { headers } = req;
  if (!BODY_METHODS.has(req.method ?? '') || headers['transfer-encoding'] !== undefined) return undefined;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return undefined;
  const type = headers['content-type'];
  const length = headers['content-length'];
  if (type === undefined || length === undefined || !PLAIN_JSON.test(type) || !/^\d{1,15}$/.test(length)) return undefined;
  const bytes = Number(length);
  return bytes <= limit ? bytes : undefined;
}

/** The body's bytes; Node's parser stops at Content-Length, so only a client gone mid-body ends it short. */
function readBytes(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (err?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (err) reject(err);
      else if (received !== length) reject(badRequest('request body ended before its Content-Length'));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => done();
    const onClose = () => done(badRequest('request body ended before its Content-Length'));
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

/** Parses as koa-body does with `jsonStrict` (co-body with bourne): UTF-8, BOM dropped, an object or array, no `__proto__` key. */
export function parseStrictJson(text: string): Request['body'] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body) return {};
  if (!OBJECT_OR_ARRAY.test(body)) throw new InvalidRequestError('request body is not valid JSON');
  try {
    const parsed = JSON.parse(body) as Request['body'];
    if (SUSPECT_PROTO.test(body)) JSON.parse(body, refuseProto);
    return parsed;
  } catch {
    throw new InvalidRequestError('request body is not valid JSON');
  }
}

function refuseProto(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new SyntaxError('forbidden key');
  return value;
}

/**
 * The request body, in `ctx.request.body`. Plain JSON of a declared length within the limit (what
 * every client of the API sends) is read here directly: koa-body's path (type-is, co-body,
 * raw-body, iconv) costs more than the answer's own request handling. Everything else (gzip,
 * chunked, other types, bodies over the limit) goes through koa-body, which gives the same
 * result for the plain case, as the tests check by sending each body both ways.
 */
export function requestBody(limit: number): Middleware {
  const parseOthers = koaBody({
    json: true,
    jsonStrict: true,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonLimit: limit,
    // A body that cannot be read (a gzip body that is not gzip, a client gone mid-body) is the request's fault.
    onError: (err) => {
      throw toQuireError(err).status < 500 ? err : badRequest('request body could not be read: check its Content-Encoding');
    },
  });
  return async function readBody(ctx: Context, next: Next): Promise<void> {
    const length = plainJsonLength(ctx.req, limit);
    if (length === undefined) {
      requireJson(ctx);
      return parseOthers(ctx, next);
    }
    ctx.request.body = length === 0 ? {} : parseStrictJson((await readBytes(ctx.req, length)).toString('utf8'));
    return next();
  };
}
