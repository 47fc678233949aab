import type { Context, Next } from 'koa';
import { badRequest } from './http-error.js';

/**
 * NUL (U+0000) has no place in any request: no id, name, URL or text of Quire's holds one, and
 * PostgreSQL refuses it in text (SQLSTATE 22021), so a value carrying one would fail where it is
 * stored, or poison a batch a background writer stores with others. It is refused at the door,
 * in the URL (`%00`) and in a JSON body, with the place it was found.
 */
export function refuseNulInUrl(ctx: Context, next: Next): Promise<void> {
  if (/%00/i.test(ctx.url)) throw badRequest('the request URL contains a NUL character (%00)', [{ path: 'url', message: 'must not contain %00' }]);
  return next();
}

/** A parsed JSON body (`ctx.request.body`) with a NUL in any string or key is refused. */
export function refuseNulInBody(ctx: Context, next: Next): Promise<void> {
  refuseNul(ctx.request.body);
  return next();
}

/** Throws 400 naming where `value` (parsed JSON) holds a NUL, in a string or a key. */
export function refuseNul(value: unknown): void {
  const at = nulAt(value, '');
  if (at !== undefined) throw badRequest(`the request body contains a NUL character (\\u0000) at ${at || 'its root'}`, [{ path: at || 'body', message: 'must not contain NUL (\\u0000)' }]);
}

function nulAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nulAt(value[i], `${path}[${i}]`);
      if (at !== undefined) return at;
    }
    return undefined;
  }
  for (const key in value) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const at = nulAt((value as Record<string, unknown>)[key], here);
    if (at !== undefined) return at;
  }
  return undefined;
}
