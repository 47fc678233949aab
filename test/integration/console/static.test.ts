import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { consoleRouter } from '../../../api/console/index.js';
import { FEATURES } from '../../../api/features.js';
import type { ApiServices, Feature } from '../../../api/services.js';
import { conforms } from '../../support/openapi-conforms.js';
import { rawRequest } from '../../support/raw-http.js';
import { serve, tempDir, testServices } from '../../support/services.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/console/assets/main-X7Q2LM4B.js"></script></head><body></body></html>';

/** The app with its console served from `consoleDir` instead of dist/console. */
const withConsoleDir = (consoleDir: string): Feature[] => FEATURES.map((feature) => (feature === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : feature));

describe('console pages', function () {
  this.timeout(60_000);
  let url = '';
  let unbuilt = '';

  before(async () => {
    const services = await testServices({ withTemporal: false });
    const built = await tempDir('quire-console-');
    await fs.mkdir(path.join(built, 'assets', 'fonts'), { recursive: true });
    await fs.writeFile(path.join(built, 'index.html'), INDEX);
    await fs.writeFile(path.join(built, 'assets', 'main-X7Q2LM4B.js'), 'console.log(1)');
    await fs.writeFile(path.join(built, 'assets', 'fonts', 'inter-AB12CD34.woff2'), 'font');
    await fs.writeFile(path.join(built, 'assets', 'robots.txt'), 'plain');
    await fs.writeFile(path.join(built, 'secret.txt'), 'outside the assets');
    url = (await serve(createApp(services, withConsoleDir(built)))).url;
    unbuilt = (await serve(createApp(services, withConsoleDir(path.join(built, 'missing'))))).url;
  });

  function assertLockedDown(res: Response) {
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/, 'no inline script');
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'same-origin');
  }

  it('serves index.html at /console and at every client-side route under it, its assets named relative to the page', async () => {
    // The way back to the API's root from each page: under a proxy's path prefix it leads to the prefix.
    const toRoot: Record<string, string> = {
      '/console': './',
      '/console/': '../',
      '/console/settings': '../',
      '/console/conversations/thr_1': '../../',
      '/console/session/elsewhere': '../../',
    };
    for (const [page, root] of Object.entries(toRoot)) {
      const res = await fetch(url + page);
      assert.equal(res.status, 200, page);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assertLockedDown(res);
      await conforms(page === '/console' ? '/console' : '/console/{page}', 'get', res.clone());
      assert.equal(await res.text(), INDEX.replace('"/console/assets/', `"${root}console/assets/`), page);
    }
  });

  it('serves built files with immutable caching for hashed names only', async () => {
    let res = await fetch(`${url}/console/assets/main-X7Q2LM4B.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assertLockedDown(res);
    assert.equal(await res.text(), 'console.log(1)');
    res = await fetch(`${url}/console/assets/fonts/inter-AB12CD34.woff2`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'font/woff2');
    res = await fetch(`${url}/console/assets/robots.txt`);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
  });

  it('answers 404 for files it does not have, and never serves outside assets/', async () => {
    // A name longer than the file system takes is no file either.
    for (const asset of ['missing-AAAAAAAA.js', '..%2Fsecret.txt', '.hidden', 'fonts/..%2F..%2Fsecret.txt', 'fonts%5C..%5Csecret.txt', `${'a'.repeat(300)}.js`]) {
      const res = await fetch(`${url}/console/assets/${asset}`);
      assert.equal(res.status, 404, asset);
      assert.equal(((await res.json()) as { code: string }).code, 'not_found');
    }
    // URLs lose dot segments (encoded ones too) before they are sent: the server sees /console/secret.txt, a client-side route.
    for (const asset of ['../secret.txt', '%2E%2E/secret.txt']) {
      assert.notEqual(await (await fetch(`${url}/console/assets/${asset}`)).text(), 'outside the assets', asset);
    }
    // Sent as written, the dot segments reach the server and are refused.
    for (const asset of ['../secret.txt', 'fonts/../../secret.txt']) {
      const res = await rawRequest(url, `GET /console/assets/${asset} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assert.equal(res.status, 404, asset);
      assert.ok(!res.body.includes('outside the assets'));
    }
  });

  it('answers 503 console_not_built, saying how to build it, when dist/console is missing', async () => {
    for (const page of ['/console', '/console/overview', '/console/assets/main-X7Q2LM4B.js']) {
      const res = await fetch(unbuilt + page);
      const body = (await res.json()) as { code: string; error: string };
      assert.equal(res.status, 503, page);
      assert.equal(body.code, 'console_not_built');
      assert.match(body.error, /npm run build/);
      assert.ok(res.headers.get('retry-after'));
    }
    await conforms('/console', 'get', await fetch(`${unbuilt}/console`));
  });

  it('still answers the session API on its own path', async () => {
    const res = await fetch(`${url}/console/session`);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'not_signed_in');
  });
});
