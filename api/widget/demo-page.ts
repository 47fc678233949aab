/**
 * A page served by Quire that shows the widget over a domain's docs. The
 * domain and the assistant key come from the address's fragment
 * (`/widget/demo#domain=…&key=…`), which never reaches a server log; without
 * them the page asks for them. The tag it shows to copy starts with
 * `publicUrl` (`QUIRE_PUBLIC_URL` as set, path included), as the console's
 * does; without it, with the API's root as the page sees it (its origin, and
 * a proxy's path prefix when it is served under one). It loads the widget
 * from there too (`../widget.js`, relative to `/widget/demo`).
 */
export function demoPage(publicUrl: string | undefined): string {
  // JSON is a script literal; `<` escaped, so no value can close the script element.
  const base = JSON.stringify(publicUrl ?? null).replace(/</g, '\\u003c');
  return DEMO_PAGE.replace('__PUBLIC_URL__', () => base);
}

const DEMO_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>Quire widget demo</title>
<style>
body{font:16px/1.6 Georgia,serif;max-width:720px;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-family:system-ui,sans-serif}code{background:#f3f3f3;padding:0 .25em}pre{white-space:pre-wrap;overflow-wrap:anywhere}
[hidden]{display:none}form{display:grid;gap:.5rem;max-width:480px;font-family:system-ui,sans-serif}input{font:inherit;padding:.4rem}
</style></head>
<body>
<h1>Quire widget demo</h1>
<p>This page is served by Quire to show its embeddable assistant. The button at the bottom right opens a chat that
answers from the domain's indexed docs, with sources and suggested pages. Try “How do retries work?” or
“How do I verify a webhook signature?” on the example docs.</p>
<p>Any site adds it with one tag:</p>
<pre><code id="tag"></code></pre>
<form id="setup" hidden>
<label>Domain <input id="domain" value="example-docs" required></label>
<label>Assistant key <input id="key" placeholder="quire_dsc_…" required></label>
<button>Show the widget</button>
<small>The key was printed by the first <code>npm start</code>; make another with
<code>npx quire keys create --org example --kind assistant</code>.</small>
</form>
<script>
(function () {
  var params = new URLSearchParams(location.hash.slice(1));
  var domain = params.get('domain') || 'example-docs';
  var key = params.get('key');
  var publicUrl = __PUBLIC_URL__;
  var root = new URL('..', location.href).href.replace(/\\/$/, '');
  document.getElementById('tag').textContent =
    '<script src="' + (publicUrl || root) + '/widget.js" data-domain="' + domain + '" data-key="quire_dsc_…" async><\\/script>';
  if (!key) {
    var form = document.getElementById('setup');
    form.hidden = false;
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      location.hash = new URLSearchParams({ domain: document.getElementById('domain').value, key: document.getElementById('key').value }).toString();
      location.reload();
    });
    return;
  }
  var s = document.createElement('script');
  s.src = '../widget.js';
  s.async = true;
  s.dataset.domain = domain;
  s.dataset.key = key;
  s.dataset.title = 'Ask the docs';
  document.body.appendChild(s);
})();
</script>
</body></html>
`;
