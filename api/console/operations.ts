import * as v from 'valibot';
import type { NamedSchemas, OperationSpec } from '../openapi/operation.js';
import type { Schema } from '../openapi/types.js';
import { SessionView, SignInBody } from './schemas.js';

const error = (code: string) => v.object({ error: v.string(), code: v.literal(code) });
const setCookie: Record<string, Schema> = {
  'Set-Cookie': {
    description:
      '`quire_console=<token>; Path=/; HttpOnly; SameSite=Strict; Max-Age=<seconds>`, plus `Secure` when the request came over TLS (directly, or through a proxy trusted by `QUIRE_TRUST_PROXY`).',
    schema: { type: 'string' },
  },
};
const csrfHeader = v.object({
  'X-CSRF-Token': v.pipe(v.string(), v.description('The session’s `csrfToken`.')),
});
const consoleHeaders: Record<string, Schema> = {
  'Content-Security-Policy': { description: "`default-src 'self'`, no inline script, `frame-ancestors 'none'`.", schema: { type: 'string' } },
  'X-Frame-Options': { description: '`DENY`.', schema: { type: 'string' } },
  'Referrer-Policy': { description: '`same-origin`.', schema: { type: 'string' } },
};
const notBuilt = { description: 'The console is not built (`console_not_built`): run `npm run build`.', body: error('console_not_built') };
const notSignedIn = { description: 'No live session (`not_signed_in`)', body: error('not_signed_in') };
const html = { 'text/html': { schema: { type: 'string' } } };

/**
 * The console session both session routes answer with, the error of reading or ending a session without one, and the
 * error of each page while the console is not built, named in the document (`#/components/schemas/…`).
 */
export const consoleSchemas: NamedSchemas = { ConsoleSession: SessionView, ConsoleNotSignedIn: notSignedIn.body, ConsoleNotBuilt: notBuilt.body };

/** The console: its session API (session-routes.ts) and its pages (static-routes.ts). */
export const consoleOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/console/session',
    operationId: 'signInToConsole',
    summary: 'Sign in to the console: exchange an admin key for a session cookie',
    description:
      'The key is checked and forgotten: the session lives in the database under the SHA-256 of the cookie’s random token, for `QUIRE_CONSOLE_SESSION_HOURS` (never past the key’s expiry); revoking the key ends it. While it lasts, every route that takes an admin key also takes the cookie when no `Authorization` header is sent.',
    tags: ['console'],
    body: SignInBody,
    responses: {
      201: { description: 'Signed in', body: SessionView, headers: setCookie },
      401: { description: 'Unknown, expired or revoked key (`invalid_key`)', body: error('invalid_key') },
      403: { description: 'An assistant key (`admin_key_required`)', body: error('admin_key_required') },
    },
    errors: [400, 413, 415, 500, 503],
  },
  {
    method: 'get',
    path: '/console/session',
    operationId: 'getConsoleSession',
    summary: 'The signed-in console session (from its cookie)',
    tags: ['console'],
    responses: {
      200: { description: 'Signed in', body: SessionView },
      401: notSignedIn,
    },
    errors: [500, 503],
  },
  {
    method: 'delete',
    path: '/console/session',
    operationId: 'signOutOfConsole',
    summary: 'Sign out: end the session on the server and clear its cookie',
    tags: ['console'],
    params: { header: csrfHeader },
    responses: {
      204: { description: 'Signed out', headers: setCookie },
      401: notSignedIn,
      403: { description: 'Missing or wrong `X-CSRF-Token` (`csrf_failed`)', body: error('csrf_failed') },
    },
    errors: [500, 503],
  },
  {
    method: 'get',
    path: '/console',
    operationId: 'consolePage',
    summary: 'The console (its pages are client-side routes under /console/…, each answered with the same page)',
    tags: ['console'],
    responses: { 200: { description: 'The console’s index.html', content: html, headers: consoleHeaders }, 503: notBuilt },
  },
  {
    method: 'get',
    path: '/console/{page}',
    operationId: 'consoleRoute',
    summary: 'A page of the console: the same index.html, which routes on the client',
    tags: ['console'],
    params: { path: v.object({ page: v.pipe(v.string(), v.description('Any path under /console but `session` and `assets/…`.')) }) },
    responses: { 200: { description: 'The console’s index.html', content: html, headers: consoleHeaders }, 503: notBuilt },
  },
  {
    method: 'get',
    path: '/console/assets/{asset}',
    operationId: 'consoleAsset',
    summary: 'A built file of the console (scripts, styles); hashed names are cached as immutable',
    tags: ['console'],
    params: { path: v.object({ asset: v.string() }) },
    responses: {
      200: { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string' } } }, headers: { ...consoleHeaders, 'Cache-Control': { description: '`public, max-age=31536000, immutable` for hashed names, else `no-cache`.', schema: { type: 'string' } } } },
      404: { description: 'No such file (`not_found`)', body: error('not_found') },
      503: notBuilt,
    },
  },
];
