import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import { watchedPage } from '../../support/browser.js';
import { serve, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

/** Where a proxy publishes the API: another host, under a path prefix. */
const PUBLIC_URL = 'https://docs-ai.example.com/quire';

/**
 * The script tag the widget demo page shows to copy, in headless Chromium: under `QUIRE_PUBLIC_URL`
 * when the API is started with it (as the console's), under the page's origin without it.
 */
describe('the widget demo page’s tag in a real browser', function () {
  this.timeout(60_000);

  /** The API with these variables (no Temporal: the page needs none), and the tag its demo page shows. */
  async function shownTag(env: Record<string, string>): Promise<{ origin: string; tag: string }> {
    const services = await testServices({ withTemporal: false, env });
    const { url } = await serve(createApp(services), services.config.http);
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.goto(`${url}/widget/demo#domain=acme-docs`);
    const tag = (await tab.page.locator('#tag').textContent()) ?? '';
    assert.deepEqual(tab.errors, []);
    return { origin: new URL(tab.page.url()).origin, tag };
  }

  const tagUnder = (base: string) => `<script src="${base}/widget.js" data-domain="acme-docs" data-key="quire_dsc_…" async></script>`;

  it('starts the tag with QUIRE_PUBLIC_URL, its path prefix kept', async () => {
    const shown = await shownTag({ QUIRE_PUBLIC_URL: `${PUBLIC_URL}/` });
    assert.notEqual(shown.origin, new URL(PUBLIC_URL).origin, 'the browser reached the API elsewhere than its public URL');
    assert.equal(shown.tag, tagUnder(PUBLIC_URL));
  });

  it('starts the tag with the page’s origin when QUIRE_PUBLIC_URL is unset', async () => {
    const shown = await shownTag({});
    assert.equal(shown.tag, tagUnder(shown.origin));
  });
});
