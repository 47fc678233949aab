import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { consoleRouter } from '../../../api/console/index.js';
import { FEATURES } from '../../../api/features.js';
import type { ApiServices } from '../../../api/services.js';
import { watchedPage } from '../../support/browser.js';
import { seedOrg, serve, tempDir, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { screenshot } from './artifacts.js';
import { startPageServer, type PageServer } from './page-server.js';

/**
 * The console's defences in headless Chromium, against a stand-in console (an index.html and one
 * hashed script under the real static routes) so they hold whatever the pages look like.
 */
describe('the console session in a real browser', function () {
  this.timeout(120_000);
  let url = '';
  let services: ApiServices;
  let acme: Awaited<ReturnType<typeof seedOrg>>;
  let attacker: PageServer;

  before(async () => {
    // A task queue no worker polls: a re-index that got through would be recorded, never run.
    services = await testServices({ taskQueue: `console-security-${process.pid}` });
    const consoleDir = await tempDir('quire-console-');
    await fs.mkdir(path.join(consoleDir, 'assets'));
    await fs.writeFile(
      path.join(consoleDir, 'index.html'),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console</title>' +
        '<script>window.inlineRan = true;</script><script src="/console/assets/app-4F7QK2ZD.js"></script></head>' +
        '<body><main><h1>Console</h1></main></body></html>',
    );
    await fs.writeFile(path.join(consoleDir, 'assets', 'app-4F7QK2ZD.js'), 'window.assetRan = true;');
    const features = FEATURES.map((f) => (f === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : f));
    url = (await serve(createApp(services, features))).url;
    acme = await seedOrg(services, 'acme');
    await services.tenants.putDomain({ id: 'acme-guarded-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://acme.test', includeHidden: false });
    attacker = await startPageServer();
  });

  /** A tab signed in to the console as a person would be: the key sent once from the console's own page. */
  async function signedInTab() {
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.goto(`${url}/console`);
    const signIn = await tab.page.evaluate(async (key) => {
      const res = await fetch('/console/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key }) });
      return { status: res.status, body: (await res.json()) as { csrfToken: string } };
    }, acme.adminKey);
    assert.equal(signIn.status, 201);
    return { ...tab, csrfToken: signIn.body.csrfToken };
  }

  it('keeps the cookie from page scripts, and runs only the console’s own scripts', async () => {
    const tab = await signedInTab();
    const cookies = await tab.context.cookies(url);
    const cookie = cookies.find((c) => c.name === 'quire_console');
    assert.ok(cookie, 'the browser holds the session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(await tab.page.evaluate('document.cookie'), '', 'document.cookie does not show it');
    assert.equal(await tab.page.evaluate('Object.keys(localStorage).length + Object.keys(sessionStorage).length'), 0, 'nothing kept in storage');

    // The cookie works for the page's own requests…
    const keys = await tab.page.evaluate(async () => (await fetch('/v2/admin/keys')).status);
    assert.equal(keys, 200);
    // …and the CSP let the hashed script run but not the inline one.
    assert.equal(await tab.page.evaluate('window.assetRan'), true);
    assert.equal(await tab.page.evaluate('window.inlineRan'), undefined);
    assert.ok(tab.errors.some((e) => /Content Security Policy/.test(e)), 'Chromium reports the refused inline script');
    await screenshot(tab.page, 'console-security', 'signed-in');
  });

  it('refuses a form posted from a page on another origin, whether or not the browser sends the cookie', async () => {
    const tab = await signedInTab();
    // Same site, other origin (another port): SameSite lets the cookie go, the missing CSRF token stops it.
    // Another site (localhost): the cookie stays home.
    const origins = [attacker.origin, attacker.origin.replace('127.0.0.1', 'localhost')];
    for (const [i, origin] of origins.entries()) {
      attacker.put(
        `/attack-${i}.html`,
        `<!doctype html><html><body>
<form id="reindex" method="POST" action="${url}/v2/admin/domains/acme-guarded-docs/index" enctype="text/plain"></form>
<form id="key" method="POST" action="${url}/v2/admin/keys"><input name="kind" value="admin"></form>
</body></html>`,
      );
      for (const form of ['reindex', 'key']) {
        await tab.page.goto(`${origin}/attack-${i}.html`);
        const [response] = await Promise.all([tab.page.waitForResponse((r) => r.url().startsWith(url)), tab.page.evaluate(`document.getElementById('${form}').submit()`)]);
        const body = JSON.parse(await response.text()) as { code: string };
        const expected = form === 'key' ? ['unsupported_media_type'] : i === 0 ? ['csrf_failed'] : ['unauthorized'];
        assert.ok(response.status() >= 400, `${origin} ${form}: ${response.status()}`);
        assert.deepEqual([body.code], expected, `${origin} ${form}`);
      }
      // A script there cannot make the request either: the admin routes answer no CORS, so its preflight fails.
      await tab.page.goto(`${origin}/attack-${i}.html`);
      const scripted = await tab.page.evaluate(async (api) => {
        try {
          const res = await fetch(`${api}/v2/admin/keys`, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'guess' }, body: '{"kind":"admin"}' });
          return `status ${res.status}`;
        } catch {
          return 'blocked';
        }
      }, url);
      assert.equal(scripted, 'blocked', origin);
    }
    await screenshot(tab.page, 'console-security', 'cross-site-post-refused');
    // Nothing happened: no re-index was started and no key was made.
    const indexing = await fetch(`${url}/v2/admin/domains/acme-guarded-docs/index`, { headers: { Authorization: `Bearer ${acme.adminKey}` } });
    assert.equal(indexing.status, 404, 'never indexed');
    assert.equal((await services.tenants.listKeys('acme')).length, 2, 'the seeded keys only');
  });

  it('cannot be framed by another origin', async () => {
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    attacker.put('/frame.html', `<!doctype html><html><body><iframe id="console" src="${url}/console"></iframe></body></html>`);
    const blocked = tab.page.waitForResponse((r) => r.url() === `${url}/console`);
    await tab.page.goto(`${attacker.origin}/frame.html`);
    await blocked;
    const frame = tab.page.frames().find((f) => f !== tab.page.mainFrame());
    assert.ok(frame);
    // A refused frame is left on Chromium's error page: the console never loads in it.
    await frame.waitForURL('chrome-error://chromewebdata/');
    assert.ok(tab.errors.some((e) => /violates the following Content Security Policy directive: "frame-ancestors 'none'"/.test(e)), tab.errors.join('\n'));
  });

  it('signs out on the server: the cookie the browser kept is refused after', async () => {
    const tab = await signedInTab();
    const token = (await tab.context.cookies(url)).find((c) => c.name === 'quire_console')?.value;
    assert.ok(token);
    const out = await tab.page.evaluate(async (csrf) => (await fetch('/console/session', { method: 'DELETE', headers: { 'X-CSRF-Token': csrf } })).status, tab.csrfToken);
    assert.equal(out, 204);
    assert.equal((await tab.context.cookies(url)).find((c) => c.name === 'quire_console'), undefined, 'the browser dropped the cookie');
    // A copy of the old cookie (kept by an attacker, or a second tab) is refused: the session is gone on the server.
    await tab.context.addCookies([{ name: 'quire_console', value: token, url }]);
    const after = await tab.page.evaluate(async () => [(await fetch('/console/session')).status, (await fetch('/v2/admin/keys')).status]);
    assert.deepEqual(after, [401, 401]);
  });

  it('refuses an assistant key at sign-in, setting no cookie', async () => {
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.goto(`${url}/console`);
    const status = await tab.page.evaluate(async (key) => {
      const res = await fetch('/console/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key }) });
      return [res.status, ((await res.json()) as { code: string }).code];
    }, acme.assistantKey);
    assert.deepEqual(status, [403, 'admin_key_required']);
    assert.deepEqual(await tab.context.cookies(url), []);
  });
});
