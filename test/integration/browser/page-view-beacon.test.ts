import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { docsPage, widgetFeatures, widgetTag } from './widget-features.js';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { assistantWorld, type AssistantWorld } from '../assistant/harness.js';
import { screenshot } from './artifacts.js';
import { startPageServer, type PageServer } from './page-server.js';


/**
 * The widget's page-view beacon in headless Chromium, on a docs site served from another
 * origin than the API: exactly one beacon per page view (loads and same-document
 * navigations), no cookie, and the counts the analytics API then reports.
 */
describe('the widget’s page views in a real browser', function () {
  this.timeout(180_000);
  let world: AssistantWorld;
  let site: PageServer;
  let tab: WatchedPage;
  afterEach(() => tab.close());

  before(async function () {
    world = await assistantWorld({ features: await widgetFeatures() });
    site = await startPageServer();
    await world.services.tenants.putDomain({ id: 'docs', orgId: world.org.orgId, source: '.', docsPath: '', baseUrl: 'https://docs.example.com/', includeHidden: false, allowedOrigins: [site.origin] });
    await world.services.tenants.putDomain({ id: 'elsewhere', orgId: world.org.orgId, source: '.', docsPath: '', baseUrl: 'https://docs.example.com/', includeHidden: false, allowedOrigins: ['https://docs.example.com'] });
    const page = (title: string, domain = 'docs') => docsPage(title, `<h1>${title}</h1>${widgetTag(world.url, domain, world.org.assistantKey)}`);
    site.put('/guides/one', page('One'));
    site.put('/guides/two', page('Two'));
    site.put('/not-listed', page('Not listed', 'elsewhere'));
  });
  after(() => world.close());

  const beacons = (requests: Request[]) => requests.filter((r) => r.url().endsWith('/page-view'));

  it('sends one beacon per page view, without cookies, and the API counts each view once', async () => {
    tab = await watchedPage();
    const { page } = tab;
    const requests: Request[] = [];
    page.on('request', (r) => void requests.push(r));
    const beaconSent = () => page.waitForRequest((r) => r.url().endsWith('/page-view'));

    let sent = beaconSent();
    await page.goto(`${site.origin}/guides/one`);
    await sent;
    await page.locator('#quire-widget button.launcher').waitFor();
    sent = beaconSent();
    await page.goto(`${site.origin}/guides/two`);
    await sent;
    await page.locator('#quire-widget button.launcher').waitFor();
    // A single-page app moving to another path: a view; staying on it (a new query or hash): none.
    sent = beaconSent();
    await page.evaluate(`history.pushState({}, '', '/guides/three')`);
    await sent;
    await page.evaluate(`history.replaceState({}, '', '/guides/three?tab=2')`);
    await page.evaluate(`location.hash = 'install'`);
    await screenshot(page, 'page-views', 'after-three-views');
    // Time for a stray beacon to show: ask the page to round-trip to the API once more.
    await page.evaluate(`fetch('${world.url}/healthz', { mode: 'no-cors' }).then((r) => r.text()).catch(() => '')`);

    const sentBeacons = beacons(requests);
    assert.equal(sentBeacons.length, 3, sentBeacons.map((r) => r.url()).join('\n'));
    for (const beacon of sentBeacons) {
      const headers = await beacon.allHeaders();
      assert.equal(headers.cookie, undefined);
      assert.match(headers['content-type'] ?? '', /^text\/plain/);
      assert.equal(beacon.method(), 'POST');
    }
    assert.deepEqual(sentBeacons.map((b) => (JSON.parse(b.postData() ?? '{}') as { path: string }).path), ['/guides/one', '/guides/two', '/guides/three']);
    assert.deepEqual(tab.errors, []);

    await world.services.analytics.tick();
    const res = await fetch(`${world.url}/v1/analytics/docs/views`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(res.status, 200);
    const views = (await res.json()) as { totals: { human: number; ai: number }; views: Array<{ path: string; human: number }> };
    assert.deepEqual(views.totals, { human: 3, ai: 0, total: 3 });
    assert.deepEqual(views.views.map((v) => [v.path, v.human]).sort(), [['/guides/one', 1], ['/guides/three', 1], ['/guides/two', 1]]);
    const visitors = (await (await fetch(`${world.url}/v1/analytics/docs/visitors`, { headers: { authorization: `Bearer ${world.org.adminKey}` } })).json()) as { totals: { human: number } };
    assert.equal(visitors.totals.human, 1, 'one browser, one visitor');
  });

  it('a page on an origin the domain does not list counts nothing', async () => {
    tab = await watchedPage();
    const { page } = tab;
    const responses: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/page-view')) responses.push(r.status());
    });
    const sent = page.waitForRequest((r) => r.url().endsWith('/page-view'));
    await page.goto(`${site.origin}/not-listed`);
    await sent;
    await page.evaluate(`fetch('${world.url}/healthz', { mode: 'no-cors' }).then((r) => r.text()).catch(() => '')`);
    await world.services.analytics.tick();
    assert.deepEqual(responses, [403]);
    const res = await fetch(`${world.url}/v1/analytics/elsewhere/views`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.deepEqual(((await res.json()) as { totals: unknown }).totals, { human: 0, ai: 0, total: 0 });
  });
});
