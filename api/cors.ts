import type { Context, Middleware, Next } from 'koa';
import type { TenantStore } from '../core/tenants/index.js';
import { HttpError } from './http-error.js';

/** What the AI SDK clients and the widget send beyond the CORS-safelisted headers. */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id'];

/** Response headers a page on another origin may read: the thread's, the limits' and the request id. */
export const CORS_EXPOSE_HEADERS = [
  'X-Thread-Id',
  'X-Thread-Key',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
];

/** Browsers may cache a preflight this long; short, so a changed origin list applies within minutes. */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * The origins allowed for this request, or undefined when any origin is.
 * Runs before authentication, so it must not depend on who is calling.
 */
export type OriginPolicy = (ctx: Context) => Promise<readonly string[] | undefined>;

export interface CorsOptions {
  policy: OriginPolicy;
  /** Methods the route answers, for `Access-Control-Allow-Methods`. */
  methods: readonly string[];
  /**
   * Request headers allowed beyond `CORS_ALLOW_HEADERS`, or `'requested'` to
   * allow whatever the preflight asks for: the `openai` client adds its own
   * `x-stainless-*` headers, which change between its versions.
   */
  allowHeaders?: readonly string[] | 'requested';
  /** Response headers a page may read beyond `CORS_EXPOSE_HEADERS`. */
  exposeHeaders?: readonly string[];
}

/** The `Access-Control-Allow-Headers` a preflight is answered with. */
function allowedHeaders(ctx: Context, extra: CorsOptions['allowHeaders']): string {
  if (extra !== 'requested') return [...CORS_ALLOW_HEADERS, ...(extra ?? [])].join(', ');
  const requested = ctx
    .get('Access-Control-Request-Headers')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h));
  return [...new Set([...CORS_ALLOW_HEADERS, ...requested])].join(', ');
}

/** `Vary: Origin`, set directly when nothing varies yet (every request of these endpoints), else through Koa's merge. */
function varyOnOrigin(ctx: Context): void {
  if (ctx.res.getHeader('Vary') === undefined && !ctx.res.headersSent) ctx.res.setHeader('Vary', 'Origin');
  else ctx.vary('Origin');
}

/**
 * CORS for an endpoint meant for browsers on other origins. A preflight is
 * answered 204 with what the clients need, whatever the origin and the domain,
 * so it tells nothing of a domain's origins; a request from an allowed origin
 * gets `Access-Control-Allow-Origin` before anything else runs, so its errors
 * and 429s are readable too. A request from a disallowed origin is refused
 * with 403, without any CORS header, before it spends anything. Requests
 * without an `Origin` (servers, curl) are left alone.
 */
export function browserCors(options: CorsOptions): Middleware {
  const methods = [...new Set([...options.methods, 'OPTIONS'])].join(', ');
  const exposed = [...CORS_EXPOSE_HEADERS, ...(options.exposeHeaders ?? [])].join(', ');
  const withOrigin = async (ctx: Context, next: Next, origin: string): Promise<void> => {
    const preflight = ctx.method === 'OPTIONS' && Boolean(ctx.get('Access-Control-Request-Method'));
    if (preflight) {
      // Answered alike for every origin and domain, without reading the domain: a preflight carries
      // no key, so its answer must not tell an unknown domain from one that lists its origins. The
      // request that follows from an origin the domain does not list is refused below.
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Methods', methods);
      ctx.set('Access-Control-Allow-Headers', allowedHeaders(ctx, options.allowHeaders));
      if (options.allowHeaders === 'requested') ctx.vary('Access-Control-Request-Headers');
      ctx.set('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
      ctx.status = 204;
      return;
    }
    const allowed = await options.policy(ctx);
    if (allowed && allowed.length > 0 && !allowed.includes(origin)) {
      throw new HttpError(403, 'forbidden', `origin ${origin} is not allowed to call this endpoint`);
    }
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', exposed);
    return next();
  };
  // Servers and curl send no Origin: they pass straight on, without a promise of this middleware's own.
  return function cors(ctx, next) {
    varyOnOrigin(ctx);
    const origin = ctx.req.headers.origin;
    return origin ? withOrigin(ctx, next, origin) : next();
  };
}

/**
 * The origins of the domain named by the route's `:domain` parameter, read
 * for requests (never for preflights). An unknown domain allows any origin:
 * the request then gets its 404 readable. A domain that lists its
 * origins also allows the API's own (`publicUrl`'s, and the one the request
 * was addressed to): pages Quire serves itself, such as the widget demo,
 * keep working when a domain is restricted.
 */
export function domainOrigins(tenants: Pick<TenantStore, 'getDomain'>, publicUrl: string): OriginPolicy {
  const publicOrigin = new URL(publicUrl).origin;
  return async (ctx) => {
    const id = ctx.params?.domain;
    const domain = typeof id === 'string' && id ? await tenants.getDomain(id) : undefined;
    const listed = domain?.allowedOrigins;
    // Only a browser on a page of this host sends its own Host back as Origin (Koa's ctx.origin is the header's).
    return listed && listed.length > 0 ? [...listed, publicOrigin, `${ctx.protocol}://${ctx.host}`] : listed;
  };
}

/** Any origin: for public endpoints that serve no tenant's data. */
export const anyOrigin: OriginPolicy = async () => undefined;
