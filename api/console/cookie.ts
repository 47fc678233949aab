import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { TenantStore } from '../../core/tenants/index.js';
import type { ConsoleSession } from '../../core/tenants/index.js';
import { HttpError } from '../http-error.js';

/** The console's session cookie: an opaque random token, never readable by page scripts. */
export const SESSION_COOKIE = 'quire_console';
/** The header a cookie-authenticated state-changing request must carry, equal to the session's token. */
export const CSRF_HEADER = 'X-CSRF-Token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `Set-Cookie` of a session (or, with `maxAgeSeconds` 0, of its removal). `Secure` whenever the
 * request came over TLS, directly or through a trusted proxy (`QUIRE_TRUST_PROXY`).
 */
export function setSessionCookie(ctx: Context, token: string, maxAgeSeconds: number): void {
  const attributes = [`${SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (ctx.secure) attributes.push('Secure');
  ctx.append('Set-Cookie', attributes.join('; '));
}

export const sessionTokenOf = (ctx: Context): string | undefined => ctx.cookies.get(SESSION_COOKIE) || undefined;

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 403 `csrf_failed`: a state-changing request made with the cookie but without the session's token. */
export function requireCsrfToken(ctx: Context, session: ConsoleSession): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  if (!sameToken(ctx.get(CSRF_HEADER), session.csrfToken)) {
    throw new HttpError(403, 'csrf_failed', `a request signed in with the console cookie must send the session's ${CSRF_HEADER} header`);
  }
}

/** The request's live console session, or undefined (no cookie, unknown, expired, or its key revoked). */
export async function consoleSessionOf(tenants: Pick<TenantStore, 'findConsoleSession'>, ctx: Context): Promise<{ token: string; session: ConsoleSession } | undefined> {
  const token = sessionTokenOf(ctx);
  if (!token) return undefined;
  const session = await tenants.findConsoleSession(token);
  return session && { token, session };
}
