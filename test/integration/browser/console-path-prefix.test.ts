import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { consoleRouter } from '../../../api/console/index.js';
import { FEATURES } from '../../../api/features.js';
import type { ApiServices } from '../../../api/services.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/index.js';
import { widgetRouter } from '../../../api/widget/index.js';
import { buildConsole } from '../../../infra/build-console.js';
import { buildWidget } from '../../../infra/build-widget.js';
import { watchedPage } from '../../support/browser.js';
import { seedOrg, serve, tempDir, testServices, withDocIndex } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { SITE } from '../assistant/site.js';
import { screenshot } from './artifacts.js';
import { ask, openWidget } from './widget-features.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const PREFIX = '/quire';

interface PrefixProxy {
  url: string;
  /** Paths asked for without the prefix: answered 404, and what no page of Quire's may ask for. */
  unprefixed: string[];
}

/**
 * A reverse proxy as an operator puts in front of Quire: everything under `/quire` goes to the API
 * with the prefix stripped (headers, cookies and streamed bodies as they are); anything else is 404.
 */
async function prefixProxy(api: () => string): Promise<PrefixProxy> {
  const unprefixed: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url !== PREFIX && !url.startsWith(`${PREFIX}/`) && !url.startsWith(`${PREFIX}?`)) {
      unprefixed.push(url);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not under the prefix');
      return;
    }
    const upstream = http.request(`${api()}${url.slice(PREFIX.length) || '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    return closed;
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, unprefixed };
}

/**
 * The console and the widget demo page served under a path prefix, in headless Chromium behind a
 * reverse proxy that strips it (as `https://example.com/quire/` proxied to the API): every asset,
 * API call and link of the pages stays under the prefix, with or without `QUIRE_PUBLIC_URL`.
 */
describe('the console and the widget demo behind a path prefix, in a real browser', function () {
  this.timeout(120_000);
  let consoleDir = '';
  let bundlePath = '';

  before(async () => {
    consoleDir = await tempDir('quire-console-');
    await buildConsole(consoleDir, REPO_ROOT);
    bundlePath = path.join(await tempDir('quire-widget-'), 'widget.js');
    await buildWidget(bundlePath, REPO_ROOT);
  });

  /** The API, with one domain indexed, behind the proxy; `publicUrl` sets QUIRE_PUBLIC_URL to the proxy's prefixed address. */
  async function proxiedApi(publicUrl: boolean) {
    let apiUrl = '';
    const proxy = await prefixProxy(() => apiUrl);
    // A task queue no worker polls: the domain's indexing status asks Temporal, and nothing runs.
    const built = await testServices({ taskQueue: `console-prefix-${randomUUID()}`, env: publicUrl ? { QUIRE_PUBLIC_URL: `${proxy.url}${PREFIX}` } : {} });
    const org = await seedOrg(built, 'acme');
    await built.tenants.putDomain({ id: 'acme-docs', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.acme.example/', includeHidden: false });
    const docIndex = new EmbeddedDocIndex(path.join(await tempDir('quire-index-'), 'index'));
    await docIndex.applyChanges('acme-docs', { upserts: SITE, removals: [] });
    const services = withDocIndex(built, docIndex);
    // The console and the widget built from source into temporary folders, as `npm run build` builds them.
    const features = FEATURES.map((f) =>
      f === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : f === widgetRouter ? (s: ApiServices) => widgetRouter(s, { bundlePath }) : f,
    );
    apiUrl = (await serve(createApp(services, features), services.config.http)).url;
    return { proxy, org, base: `${proxy.url}${PREFIX}` };
  }

  for (const publicUrl of [true, false]) {
    it(`loads, signs in, lists a domain, moves between pages and signs out under the prefix (${publicUrl ? 'with' : 'without'} QUIRE_PUBLIC_URL)`, async () => {
      const { proxy, org, base } = await proxiedApi(publicUrl);
      const tab = await watchedPage();
      onSuiteEnd(() => tab.close());
      const { page } = tab;
      const asked: string[] = [];
      page.on('request', (r) => void asked.push(r.url()));

      // A deep link first: its assets are two folders up from the page.
      await page.goto(`${base}/console/settings/domains`);
      await page.getByLabel('Admin key').fill(org.adminKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#widget-acme-docs-tag').waitFor();
      assert.equal(await page.locator('.domain-picker').count(), 0, 'Settings is not per domain');
      assert.equal(
        await page.locator('#widget-acme-docs-tag').textContent(),
        `<script src="${base}/widget.js" data-domain="acme-docs" data-key="quire_dsc_…" async></script>`,
        'the tag to copy is under the prefix',
      );
      assert.equal(await page.locator('#push-acme-docs-url').textContent(), `${base}/v2/hooks/domains/acme-docs/push`);

      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Jobs' }).click();
      await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
      assert.equal(new URL(page.url()).pathname, `${PREFIX}/console/jobs`);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      assert.equal(new URL(page.url()).pathname, `${PREFIX}/console/overview`);
      assert.deepEqual(await page.locator('.domain-picker option').allTextContents(), ['acme-docs'], 'the domain is listed');

      // Loaded afresh at another depth, the page finds its assets and its session again.
      await page.goto(`${base}/console`);
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      assert.equal(new URL(page.url()).pathname, `${PREFIX}/console/overview`);
      await screenshot(page, 'console', 'overview-under-prefix');

      // The thread page imports its renderer when it opens: a chunk of its own, under the prefix too.
      const loadedFirst = new Set(asked.filter((u) => u.includes('/console/assets/')));
      const renderer = page.waitForResponse((r) => r.url().includes('/console/assets/chunk-') && !loadedFirst.has(r.url()));
      await page.goto(`${base}/console/conversations/thr_none`);
      await page.getByRole('heading', { name: 'Thread', level: 1 }).waitFor();
      const chunk = await renderer;
      assert.equal(chunk.status(), 200);
      assert.ok(chunk.url().startsWith(`${base}/console/assets/`), chunk.url());
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to the Quire console' }).waitFor();

      assert.deepEqual(proxy.unprefixed, [], 'no request reached the proxy outside the prefix');
      const outside = asked.filter((u) => !u.startsWith('data:') && !u.startsWith(`${base}/`));
      assert.deepEqual(outside, [], 'the browser asked for nothing outside the prefix');
      assert.ok(asked.some((u) => u.startsWith(`${base}/console/assets/`)) && asked.some((u) => u.startsWith(`${base}/v2/admin/`)), 'assets and the API were asked for under the prefix');
      // The signed-out page's 401, and the 404 of the index status of a domain never indexed.
      assert.deepEqual(tab.errors.filter((e) => !/status of 40[14]/.test(e)), [], 'no error but the expected refusals');
    });
  }

  it('the widget demo page loads the widget under the prefix, and the widget answers through it', async () => {
    const { proxy, org, base } = await proxiedApi(false);
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    const { page } = tab;
    const asked: string[] = [];
    page.on('request', (r) => void asked.push(r.url()));
    await page.goto(`${base}/widget/demo#domain=acme-docs&key=${org.assistantKey}`);
    assert.equal(await page.locator('#tag').textContent(), `<script src="${base}/widget.js" data-domain="acme-docs" data-key="quire_dsc_…" async></script>`);
    await openWidget(page);
    const answer = await ask(page, 'How do I install the CLI?', 1);
    assert.ok(((await answer.textContent()) ?? '').length > 0, 'an answer came');
    assert.deepEqual(proxy.unprefixed, []);
    assert.deepEqual(
      asked.filter((u) => !u.startsWith('data:') && !u.startsWith(`${base}/`)),
      [],
      'the page and the widget asked for nothing outside the prefix',
    );
    assert.ok(asked.includes(`${base}/widget.js`) && asked.some((u) => u.startsWith(`${base}/discovery/v2/assistant/acme-docs/message`)));
    assert.deepEqual(tab.errors, []);
  });
});
