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

/** The origins a domain lets call it, and the organisation whose domain it is. */
export interface OriginRule {
  allowed: readonly string[];
  orgId: string;
}

/**
 * The origins allowed for this request, or undefined when any origin is. Read before
 * authentication, it is applied only once the caller proves to be of `orgId`
 * (`refuseUnlistedOrigin`): to anyone else the domain's list must not show.
 */
export type OriginPolicy = (ctx: Context) => Promise<OriginRule | undefined>;

/** A request from an origin its domain does not list, to refuse once its key is known to be that domain's organisation's. */
const unlisted = new WeakMap<Context, { origin: string; orgId: string }>();

/**
 * Refuses (403, without CORS headers) a request from an origin its domain does not list, once
 * authentication found its caller to be of `orgId`, before anything is spent. Authentication comes
 * first so that a request without a key, with a wrong one or with another organisation's is
 * answered as it would be for an unknown domain: no answer tells whether a domain lists origins.
 */
export function refuseUnlistedOrigin(ctx: Context, orgId: string): void {
  const held = unlisted.get(ctx);
  if (!held || held.orgId !== orgId) return;
  ctx.remove('Access-Control-Allow-Origin');
  ctx.remove('Access-Control-Expose-Headers');
  throw new HttpError(403, 'forbidden', `origin ${held.origin} is not allowed to call this endpoint`);
}

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
 * so it tells nothing of a domain's origins; a request gets
 * `Access-Control-Allow-Origin` before anything else runs, so its errors
 * and 429s are readable too. A request from an origin its domain does not
 * list is refused with 403, without any CORS header, once its key is found to
 * be the domain's organisation's and before it spends anything
 * (`refuseUnlistedOrigin`); without such a key it is answered as for an
 * unknown domain. Requests without an `Origin` (servers, curl) are left alone.
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
    const rule = await options.policy(ctx);
    if (rule && rule.allowed.length > 0 && !rule.allowed.includes(origin)) unlisted.set(ctx, { origin, orgId: rule.orgId });
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
 * for requests (never for preflights), applied to its own organisation's keys
 * only. An unknown domain allows any origin: the request then gets its 404
 * readable. A domain that lists its
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
    if (!domain || !listed || listed.length === 0) return undefined;
    // Only a browser on a page of this host sends its own Host back as Origin (Koa's ctx.origin is the header's).
    return { allowed: [...listed, publicOrigin, `${ctx.protocol}://${ctx.host}`], orgId: domain.orgId };
  };
}

/** Any origin: for public endpoints that serve no tenant's data. */
export const anyOrigin: OriginPolicy = async () => undefined;
