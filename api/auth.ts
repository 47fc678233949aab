import type { Context, Next } from 'koa';
import type { ApiKeyRecord, KeyKind, TenantStore } from '../core/tenants/index.js';
import { badRequest, HttpError } from './http-error.js';

export interface AuthState {
  key: ApiKeyRecord;
  orgId: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Requires a live key of `kind`. No or unknown key: 401. A valid key of the
 * other kind: 403. The key's organisation scopes everything after it.
 */
export function requireKey(tenants: TenantStore, kind: KeyKind) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    // Node keeps only the first of repeated Authorization headers; two keys in one request is a confused client.
    if ((ctx.req.headersDistinct.authorization?.length ?? 0) > 1) {
      throw badRequest('send one Authorization header, not several', [{ path: 'Authorization', message: 'must appear once' }]);
    }
    const header = ctx.get('Authorization');
    const match = BEARER.exec(header);
    if (!match?.[1]) throw new HttpError(401, 'unauthorized', 'missing Authorization: Bearer <API key> header');
    const key = await tenants.authenticate(match[1]);
    if (!key) throw new HttpError(401, 'unauthorized', 'unknown or revoked API key');
    if (key.kind !== kind) {
      throw new HttpError(
        403,
        'forbidden',
        kind === 'admin' ? 'this endpoint needs an admin key (quire_…)' : 'this endpoint needs an assistant key (quire_dsc_…)',
      );
    }
    ctx.state.auth = { key, orgId: key.orgId } satisfies AuthState;
    await next();
  };
}

export function authOf(ctx: Context): AuthState {
  const auth = ctx.state.auth as AuthState | undefined;
  if (!auth) throw new HttpError(401, 'unauthorized', 'not authenticated');
  return auth;
}
