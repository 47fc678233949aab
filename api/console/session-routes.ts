import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ConsoleSession } from '../../core/tenants/index.js';
import { HttpError } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { consoleSessionOf, requireCsrfToken, setSessionCookie } from './cookie.js';
import { SignInBody, type SessionViewOut } from './schemas.js';

const notSignedIn = () => new HttpError(401, 'not_signed_in', 'not signed in to the console (POST /console/session with an admin key)');

// Organisations have no display name of their own yet: the id is what people know them by.
const viewOf = (session: ConsoleSession, publicUrl: string | undefined): SessionViewOut => ({
  organisation: { id: session.orgId, name: session.orgId },
  csrfToken: session.csrfToken,
  expiresAt: session.expiresAt,
  publicUrl: publicUrl ?? null,
});

function answer(ctx: Context, status: number, session: ConsoleSession, publicUrl: string | undefined): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = viewOf(session, publicUrl);
}

export type SessionRoutesDeps = Pick<ApiServices, 'tenants' | 'config'>;

/**
 * `/console/session`: an admin key exchanged for a session cookie (the key itself is
 * not kept, in the browser or the database), read back, and ended on the server.
 */
export function addSessionRoutes(router: Router, services: SessionRoutesDeps): void {
  const { tenants } = services;
  const { sessionHours, publicUrl } = services.config.console;
  const lifetimeMs = sessionHours * 3600_000;

  router.post('/console/session', async (ctx) => {
    const { key: secret } = parseInput(SignInBody, ctx.request.body);
    const key = await tenants.authenticate(secret);
    if (!key) throw new HttpError(401, 'invalid_key', 'unknown, expired or revoked key');
    if (key.kind !== 'admin') throw new HttpError(403, 'admin_key_required', 'the console needs an admin key (quire_…), not an assistant key');
    const { token, session } = await tenants.openConsoleSession(key, lifetimeMs);
    setSessionCookie(ctx, token, Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000)));
    answer(ctx, 201, session, publicUrl);
  });

  router.get('/console/session', async (ctx) => {
    const signedIn = await consoleSessionOf(tenants, ctx);
    if (!signedIn) throw notSignedIn();
    answer(ctx, 200, signedIn.session, publicUrl);
  });

  router.delete('/console/session', async (ctx) => {
    const signedIn = await consoleSessionOf(tenants, ctx);
    if (!signedIn) {
      setSessionCookie(ctx, '', 0);
      throw notSignedIn();
    }
    requireCsrfToken(ctx, signedIn.session);
    await tenants.endConsoleSession(signedIn.token);
    setSessionCookie(ctx, '', 0);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });
}
