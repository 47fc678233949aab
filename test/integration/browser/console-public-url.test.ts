import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { consoleRouter } from '../../../api/console/index.js';
import { FEATURES } from '../../../api/features.js';
import type { ApiServices } from '../../../api/services.js';
import { buildConsole } from '../../../infra/build-console.js';
import { watchedPage } from '../../support/browser.js';
import { seedOrg, serve, tempDir, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { screenshot } from './artifacts.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Where a proxy publishes the API: another host, under a path prefix. */
const PUBLIC_URL = 'https://docs-ai.example.com/quire';

interface CopyableUrls {
  /** Where the browser reached the API. */
  origin: string;
  /** What Settings, Domains shows and copies: the widget's script tag and the push hook's URL. */
  shown: { tag: string; hook: string };
  copied: { tag: string; hook: string };
}

/**
 * The URLs the console gives to paste elsewhere, in headless Chromium: under `QUIRE_PUBLIC_URL`
 * when the API is started with it, under the page's origin without it.
 */
describe('the console’s copyable URLs in a real browser', function () {
  this.timeout(120_000);
  let consoleDir = '';

  before(async () => {
    consoleDir = await tempDir('quire-console-');
    await buildConsole(consoleDir, REPO_ROOT);
  });

  /** An API over its own data, with these variables, serving the built console; one domain to show. */
  async function api(env: Record<string, string>) {
    // A task queue no worker polls: the page's indexing status asks Temporal, and nothing runs.
    const services = await testServices({ taskQueue: `console-public-url-${randomUUID()}`, env });
    const acme = await seedOrg(services, 'acme');
    await services.tenants.putDomain({ id: 'acme-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://docs.acme.example', includeHidden: false });
    const features = FEATURES.map((f) => (f === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : f));
    const { url } = await serve(createApp(services, features), services.config.http);
    return { url, adminKey: acme.adminKey };
  }

  /** Signs in, opens Settings, Domains, and reads the widget tag and the hook URL as shown and as copied. */
  async function copyableUrls(target: { url: string; adminKey: string }, shot: string): Promise<CopyableUrls> {
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    const { page, context } = tab;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: target.url });
    await page.goto(`${target.url}/console/settings/domains`);
    await page.fill('#admin-key', target.adminKey);
    await page.click('button[type=submit]');
    const tag = page.locator('#widget-acme-docs-tag');
    const hook = page.locator('#push-acme-docs-url');
    await tag.waitFor();
    const shown = { tag: (await tag.textContent()) ?? '', hook: (await hook.textContent()) ?? '' };
    const copy = async (button: string) => {
      await page.getByRole('button', { name: button }).click();
      await page.getByRole('button', { name: button }).filter({ hasText: 'copied' }).waitFor();
      return page.evaluate<string>('navigator.clipboard.readText()');
    };
    const copied = { tag: await copy('Copy the tag'), hook: await copy('Copy the hook URL') };
    await screenshot(page, 'console', shot);
    return { origin: new URL(page.url()).origin, shown, copied };
  }

  const tagUnder = (base: string) => `<script src="${base}/widget.js" data-domain="acme-docs" data-key="quire_dsc_…" async></script>`;
  const hookUnder = (base: string) => `${base}/v2/hooks/domains/acme-docs/push`;

  it('starts the widget tag and the push hook URL with QUIRE_PUBLIC_URL, its path prefix kept', async () => {
    const proxied = await api({ QUIRE_PUBLIC_URL: `${PUBLIC_URL}/` });
    const urls = await copyableUrls(proxied, 'settings-domains-public-url');
    assert.notEqual(urls.origin, new URL(PUBLIC_URL).origin, 'the browser reached the API elsewhere than its public URL');
    assert.deepEqual(urls.shown, { tag: tagUnder(PUBLIC_URL), hook: hookUnder(PUBLIC_URL) });
    assert.deepEqual(urls.copied, urls.shown, 'what is copied is what is shown');
  });

  it('starts them with the page’s origin when QUIRE_PUBLIC_URL is unset', async () => {
    const direct = await api({});
    const urls = await copyableUrls(direct, 'settings-domains-page-origin');
    assert.equal(urls.origin, new URL(direct.url).origin);
    assert.deepEqual(urls.shown, { tag: tagUnder(urls.origin), hook: hookUnder(urls.origin) });
    assert.deepEqual(urls.copied, urls.shown, 'what is copied is what is shown');
  });
});
