/**
 * A project's repository or a domain's source may be a URL with credentials (a private docs
 * repository read over HTTPS with a token). Views show such a URL with its credentials replaced by
 * MASK, and a change that sends the masked form back (the console sends its whole form) keeps the
 * stored credentials: a listing never hands them out, and saving a form never loses them.
 */
export const MASK = '***';

/** A URL's scheme, its userinfo (up to the last @ before the path: a password may hold an @) and the rest. */
const SCHEME_URL = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)@(.*)$/i;

/** The URL with its credentials replaced by MASK; anything else unchanged (a path, git@host:path). */
export function maskCredentials(value: string): string {
  const url = SCHEME_URL.exec(value);
  return url ? `${url[1]}${MASK}@${url[3]}` : value;
}

/**
 * The value to store for `incoming` when `stored` is the current one: a URL whose credentials are
 * MASK takes the stored URL's credentials (the rest of it may have changed). Undefined when the
 * stored value has none to take.
 */
export function restoreCredentials(incoming: string, stored: string): string | undefined {
  const url = SCHEME_URL.exec(incoming);
  if (!url || url[2] !== MASK) return incoming;
  const current = SCHEME_URL.exec(stored);
  return current ? `${url[1]}${current[2]}@${url[3]}` : undefined;
}
