import fs from 'node:fs/promises';
import path from 'node:path';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { HttpError } from '../http-error.js';
import { notFound } from '../http-error.js';

/**
 * The console's pages may run only their own scripts and styles and talk only to
 * this origin; no page may frame them.
 */
export const CONSOLE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** esbuild's `[name]-[hash]` names: the content never changes under such a name. */
const HASHED = /-[A-Za-z0-9]{8,}\.[a-z0-9]+$/;
/** One path segment or more of plain file names: no `..`, no hidden files, no backslashes. */
const ASSET_PATH = /^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

const notBuilt = () => new HttpError(503, 'console_not_built', 'the console is not built: run npm run build', undefined, { 'Retry-After': '300' });

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    // A name the client chose that names no file (too long a name included) is a 404, not a defect.
    if (err instanceof Error && 'code' in err && ['ENOENT', 'EISDIR', 'ENOTDIR', 'ENAMETOOLONG'].includes(String(err.code))) return undefined;
    throw err;
  }
}

/**
 * The way from the page at `pagePath` (`/console/jobs/docs/job_1`) back to the API's root, as a
 * relative URL (`../../../`; `./` for `/console` itself): a browser that reached the page
 * through a proxy's path prefix (`/quire/console/…`, the prefix stripped before the API) resolves
 * it to that prefix, one that reached the API directly to the origin's root. Segments are what
 * the browser counts: what lies between slashes, empty ones included.
 */
export function pageToRoot(pagePath: string): string {
  const depth = pagePath.split('/').length - 2;
  return depth > 0 ? '../'.repeat(depth) : './';
}

/**
 * index.html as the page at `pagePath` loads it: the built file names its assets from the root
 * (`/console/assets/main-….js`); each is named relative to the page instead, so the console
 * loads under a proxy's path prefix as well as without one (the CSP's `base-uri 'none'` leaves
 * no `<base>` to do it).
 */
function pageAt(index: Buffer, pagePath: string): string {
  return index.toString('utf8').replaceAll('="/console/assets/', `="${pageToRoot(pagePath)}console/assets/`);
}

/**
 * `GET /console/assets/*`: the built files; `GET /console` and every other path under it (the
 * client-side routes): `index.html`. Nothing is cached in memory, so a rebuild shows at once.
 */
export function addStaticRoutes(router: Router, consoleDir: string): void {
  const assetsDir = path.join(consoleDir, 'assets');

  const securityHeaders = (ctx: Context, next: Next) => {
    ctx.set(CONSOLE_HEADERS);
    return next();
  };

  router.get('/console/assets/{*asset}', securityHeaders, async (ctx) => {
    const asset = [ctx.params.asset ?? ''].flat().join('/');
    if (!ASSET_PATH.test(asset) || asset.split('/').some((segment) => segment.startsWith('.'))) throw notFound('console asset');
    const body = await readIfFile(path.join(assetsDir, asset));
    if (!body) {
      if (!(await readIfFile(path.join(consoleDir, 'index.html')))) throw notBuilt();
      throw notFound('console asset');
    }
    ctx.set('Cache-Control', HASHED.test(asset) ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = TYPES[path.extname(asset).toLowerCase()] ?? 'application/octet-stream';
    ctx.body = body;
  });

  router.get(['/console', '/console/{*page}'], securityHeaders, async (ctx) => {
    const page = await readIfFile(path.join(consoleDir, 'index.html'));
    if (!page) throw notBuilt();
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = pageAt(page, ctx.path);
  });
}
