import { randomBytes } from 'node:crypto';
import { PAGE_STYLE } from './page-style.js';

/** Why the page asks: no key and no token, or a link whose token opens nothing. */
export type SignInReason = 'missing' | 'bad-token';

/**
 * Headers of the sign-in page: only its own script (by nonce) runs, and it
 * may call only this API; the address never leaves in a Referer.
 */
export function signInHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; connect-src 'self'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

export const newNonce = () => randomBytes(16).toString('base64url');

/**
 * Asks a browser for an admin key, or for the link with its token. The key
 * is sent once, in an Authorization header, for the page to replace this
 * one; nothing is stored in the browser.
 */
export function renderSignInPage(reason: SignInReason, nonce: string): string {
  const why =
    reason === 'bad-token'
      ? '<p class="error">The token in this link does not open a pull request here: it is not this pull request’s, or the pull request is gone.</p>'
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>Sign in · Quire pull request</title><style>${PAGE_STYLE}</style></head>
<body>
<h1>Sign in to see this pull request</h1>
${why}
<p>This is a pull request of Quire’s local forge. The job’s <code>prLink</code> carries a token
(<code>…?token=pv_…</code>) that opens this one pull request without signing in: open the whole link.</p>
<p>Or sign in with an admin key (<code>quire_…</code>) of the project’s organisation. The key is sent with
this one request and not kept by the browser.</p>
<form id="sign-in">
<label for="key">Admin key</label>
<input id="key" name="key" type="password" autocomplete="off" spellcheck="false" required>
<p id="error" class="error" role="alert" hidden></p>
<button type="submit">Sign in</button>
</form>
<script nonce="${nonce}">
document.getElementById('sign-in').addEventListener('submit', function (event) {
  event.preventDefault();
  var error = document.getElementById('error');
  var key = document.getElementById('key').value.trim();
  error.hidden = true;
  fetch(location.pathname, { headers: { authorization: 'Bearer ' + key, accept: 'text/html' }, cache: 'no-store' })
    .then(function (res) {
      if (!res.ok) throw res.status;
      return res.text();
    })
    .then(function (html) {
      var page = new DOMParser().parseFromString(html, 'text/html');
      var title = page.title;
      document.documentElement.replaceWith(document.adoptNode(page.documentElement));
      document.title = title;
    })
    .catch(function (status) {
      error.textContent = status === 401 || status === 403 || status === 404
        ? 'This key does not open this pull request: it must be an admin key of the project’s organisation.'
        : 'The pull request could not be loaded; try again.';
      error.hidden = false;
    });
});
</script>
</body></html>
`;
}
