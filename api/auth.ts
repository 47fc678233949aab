import type { Context, Next } from 'koa';
import type { ApiKeyRecord, Domain, KeyKind, TenantStore } from '../core/tenants/index.js';
import { ForbiddenError, UnauthorizedError } from '../core/errors.js';
import { consoleSessionOf, requireCsrfToken, sessionTokenOf } from './console/cookie.js';
import { refuseUnlistedOrigin } from './cors.js';
import { badRequest, notFound } from './http-error.js';

export interface AuthState {
  key: ApiKeyRecord;
  orgId: string;
  /** Whether the credential the request came with still holds (its key not revoked or expired, its console session not ended): asked again by long-lived streams. */
  inForce(): Promise<boolean>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Whether `Authorization` appears more than once, read from the raw header list (Node's `headersDistinct` copies every header). */
function repeatsAuthorization(rawHeaders: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++seen > 1) return true;
  }
  return false;
}

/**
 * Requires a live key of `kind`. No or unknown key: 401. A valid key of the
 * other kind: 403. The key's organisation scopes everything after it. Where an
 * admin key is required, a request without `Authorization` may instead carry
 * the console's session cookie (state-changing methods then need its CSRF token).
 * A browser request from an origin its domain does not list is refused (403)
 * here, once the key is found to be that domain's organisation's.
 */
export function requireKey(tenants: TenantStore, kind: KeyKind) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    // Node keeps only the first of repeated Authorization headers; two keys in one request is a confused client.
    if (repeatsAuthorization(ctx.req.rawHeaders)) {
      throw badRequest('send one Authorization header, not several', [{ path: 'Authorization', message: 'must appear once' }]);
    }
    const header = ctx.get('Authorization');
    if (!header && kind === 'admin' && sessionTokenOf(ctx)) {
      const signedIn = await consoleSessionOf(tenants, ctx);
      if (!signedIn) throw new UnauthorizedError('the console session has ended; sign in again');
      requireCsrfToken(ctx, signedIn.session);
      refuseUnlistedOrigin(ctx, signedIn.session.orgId);
      const inForce = async () => (await tenants.findConsoleSession(signedIn.token)) !== undefined;
      ctx.state.auth = { key: signedIn.session.key, orgId: signedIn.session.orgId, inForce } satisfies AuthState;
      return next();
    }
    const match = BEARER.exec(header);
    if (!match?.[1]) throw new UnauthorizedError('missing Authorization: Bearer <API key> header');
    const key = await tenants.authenticate(match[1]);
    if (!key) throw new UnauthorizedError('unknown or revoked API key');
    if (key.kind !== kind) {
      throw new ForbiddenError(kind === 'admin' ? 'this endpoint needs an admin key (quire_…)' : 'this endpoint needs an assistant key (quire_dsc_…)');
    }
    // Only now, so a request without this organisation's key learns nothing of its domain's origins.
    refuseUnlistedOrigin(ctx, key.orgId);
    const secret = match[1];
    const inForce = async () => (await tenants.authenticate(secret)) !== undefined;
    ctx.state.auth = { key, orgId: key.orgId, inForce } satisfies AuthState;
    await next();
  };
}

export function authOf(ctx: Context): AuthState {
  const auth = ctx.state.auth as AuthState | undefined;
  if (!auth) throw new UnauthorizedError('not authenticated');
  return auth;
}

/**
 * The route's `:domain` when it belongs to the caller's organisation (after
 * `requireKey`). Another organisation's domain is answered 404 like a missing
 * one, so a key never learns which domains exist.
 */
export async function ownDomain(tenants: Pick<TenantStore, 'getDomain'>, ctx: Context): Promise<Domain> {
  const domainId = String(ctx.params?.domain ?? '');
  const domain = await tenants.getDomain(domainId);
  if (!domain || domain.orgId !== authOf(ctx).orgId) throw notFound(`domain '${domainId}'`);
  return domain;
}
