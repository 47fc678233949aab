/**
 * The console's one door to the API: same-origin requests carrying the
 * session cookie, with the CSRF token (held in memory only) on every request
 * that changes something. Errors come back as `ApiError`, with the field the
 * server named for a 400.
 */

import type { components } from './openapi.gen.js';

/** One broken rule of a 400 (`details` of the API's Error): the field, and what is wrong with it. */
export type FieldError = NonNullable<components['schemas']['Error']['details']>[number];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's message about one field (`key`, `projectId`), for showing beside it. */
  fieldMessage(field: string): string | undefined {
    return this.fields.find((f) => f.path === field || f.path.startsWith(`${field}.`))?.message;
  }
}

/**
 * The API's root path as the browser sees it: '' when the API is served at the origin's root, a
 * reverse proxy's path prefix (`/quire`, stripped by the proxy) when it is served under one. Read
 * from this script's own address, which index.html names relative to the page
 * (`<root>/console/assets/main-….js`), so the console needs no setting to know it.
 */
export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

/** A path of the API or of the console (`/v2/admin/domains`, `/console/jobs`) as the browser asks for it: under ROOT. */
export function rooted(path: string): string {
  return `${ROOT}${path}`;
}

let csrfToken: string | null = null;
let publicUrl: string | null = null;
let onSignedOut: () => void = () => undefined;
let onCsrfRefused: () => Promise<boolean> = () => Promise.resolve(false);
/** The renewal under way: requests refused together wait for one reading of the session. */
let renewing: Promise<boolean> | undefined;

/** The token the session answered; sent as `X-CSRF-Token` on every request that is not a GET. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The session's `publicUrl` (`QUIRE_PUBLIC_URL`, no trailing slash), which `apiUrl` starts with; null: unset. */
export function setPublicUrl(url: string | null): void {
  publicUrl = url;
}

/** Called when a request finds the session gone (401), so the shell can show the sign-in page. */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

/**
 * Called when a request is refused for its CSRF token (`403 csrf_failed`: another tab signed in
 * again, and the shared cookie is that sign-in's). The listener answers whether this tab took the
 * new session's token, and so may send the request once more.
 */
export function whenCsrfRefused(listener: () => Promise<boolean>): void {
  onCsrfRefused = listener;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  /** Headers of this request beside the console's own (`Idempotency-Key`). */
  headers?: Record<string, string>;
  /** A 401 here is an answer (sign-in), not a lost session. */
  quiet401?: boolean;
}

/**
 * The API's absolute URL for `path`, for pasting elsewhere (a docs site's widget tag, a forge's
 * webhook): under the deployment's public URL, which a proxy's path prefix or host may set apart
 * from the page's; the page's origin and ROOT only when the server names none.
 */
export function apiUrl(path: string): string {
  return `${publicUrl ?? location.origin + ROOT}${path}`;
}

/** The path with its query, leaving out parameters that are unset. */
export function withQuery(path: string, query: RequestOptions['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Sends one request and answers its JSON body (undefined for 204); once more after the session was renewed. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await send<T>(path, options);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 403 && err.code === 'csrf_failed')) throw err;
    renewing ??= onCsrfRefused()
      .catch(() => false)
      .finally(() => (renewing = undefined));
    if (!(await renewing)) throw err;
    return send<T>(path, options);
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(withQuery(rooted(path), options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The server could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = errorOf(response.status, body);
    if (response.status === 401 && !options.quiet401) {
      setCsrfToken(null);
      onSignedOut();
    }
    throw error;
  }
  return body as T;
}

function errorOf(status: number, body: unknown): ApiError {
  const shape = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; code?: unknown; details?: unknown };
  const message = typeof shape.error === 'string' ? shape.error : `The server answered ${status}.`;
  const code = typeof shape.code === 'string' ? shape.code : `http_${status}`;
  const fields = Array.isArray(shape.details)
    ? shape.details.flatMap((d: unknown) => {
        const item = (typeof d === 'object' && d !== null ? d : {}) as { path?: unknown; message?: unknown };
        return typeof item.path === 'string' && typeof item.message === 'string' ? [{ path: item.path, message: item.message }] : [];
      })
    : [];
  return new ApiError(status, code, message, fields);
}
