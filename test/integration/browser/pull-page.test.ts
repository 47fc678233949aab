import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import { pullsRouter } from '../../../api/pulls/index.js';
import { watchedPage } from '../../support/browser.js';
import { serve } from '../../support/services.js';
import { engineFixture } from '../agent-engine/setup.js';
import { screenshot } from './artifacts.js';

describe("the local forge's prLink in a real browser", function () {
  this.timeout(120_000);

  it('opens by itself (its token, no key) like a forge page; without the token it asks for an admin key', async () => {
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'topic 2', new_text: 'subject 2' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say <b>subject</b> 2', summary: 'Rewords **page 2**. <script>window.pwned=1</script>' } }] },
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'topic 1', new_text: 'subject 1' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say <b>subject</b> 2', summary: 'Rewords page 1 as well.' } }] },
      ],
    });
    const turn = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('web1', ['Reword page 2'])));
    const pr = await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({ jobId: 'web1', projectId: 'docs', branch: 'quire/web1', turn: 1, title: turn.title, summary: turn.summary, messageIds: ['m1-0'], filesChanged: turn.filesChanged, validationErrors: [], draft: false }),
    );
    const second = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('web1', ['Page 1 too, please'], 2)));
    await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({ jobId: 'web1', projectId: 'docs', branch: 'quire/web1', turn: 2, title: second.title, summary: second.summary, messageIds: ['m1-0', 'm2-0'], filesChanged: [...turn.filesChanged, ...second.filesChanged], validationErrors: [], draft: false }),
    );
    const { url } = await serve(createApp(f.services, [pullsRouter]));
    const admin = await f.services.tenants.createKey('acme', 'admin');
    // The prLink names the configured public URL; the page is the same one on the test server.
    const link = new URL(pr.url);
    const tab = await watchedPage();
    try {
      const { page } = tab;
      const response = await page.goto(url + link.pathname + link.search);
      assert.equal(response?.status(), 200);
      await screenshot(page, 'pull-page', 'pull-request');
      assert.equal(await page.locator('h1').textContent(), 'Say <b>subject</b> 2 #1');
      assert.match((await page.locator('header p').textContent()) ?? '', /Open\s+The Quire agent wants to merge quire\/web1 into main, for job web1\.\s+Opened \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC, updated /);
      assert.equal(await page.locator('article.body strong').first().textContent(), 'page 2', 'Markdown is rendered');
      assert.equal(await page.locator('article.body h3', { hasText: 'Requested' }).count(), 1);
      assert.equal(await page.locator('article.body blockquote').textContent(), '\nReword page 2\n');
      assert.match((await page.locator('article.body').textContent()) ?? '', /<script>window\.pwned=1<\/script>/, 'HTML is shown as text');
      assert.equal(await page.evaluate('window.pwned'), undefined);
      assert.match((await page.locator('article.follow-up h2').textContent()) ?? '', /^Follow-up, turn 2 · \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/);
      assert.equal(await page.locator('article.follow-up blockquote').textContent(), '\nPage 1 too, please\n', "the follow-up's own request only");
      assert.match((await page.locator('.merge pre').textContent()) ?? '', /^git fetch origin\ngit switch quire\/web1 /);
      assert.match((await page.locator('.diff .add').first().textContent()) ?? '', /^\+This page explains subject 1/);
      assert.match((await page.locator('.diff .del').first().textContent()) ?? '', /^-This page explains topic 1/);
      assert.deepEqual(tab.errors, []);

      const wrong = await page.goto(`${url}${link.pathname}?token=pv_wrong`);
      assert.equal(wrong?.status(), 404);
      assert.match((await page.locator('p.error').first().textContent()) ?? '', /does not open a pull request here/);
      await screenshot(page, 'pull-page', 'bad-token');

      const asked = await page.goto(url + link.pathname);
      assert.equal(asked?.status(), 401);
      assert.equal(await page.locator('h1').textContent(), 'Sign in to see this pull request');
      await screenshot(page, 'pull-page', 'sign-in');
      await page.fill('#key', 'quire_not_a_key');
      await page.click('button[type=submit]');
      await page.locator('#error').waitFor({ state: 'visible' });
      assert.match((await page.locator('#error').textContent()) ?? '', /must be an admin key of the project’s organisation/);
      await screenshot(page, 'pull-page', 'sign-in-refused');
      await page.fill('#key', admin.secret);
      await page.click('button[type=submit]');
      await page.locator('h1', { hasText: 'Say <b>subject</b> 2 #1' }).waitFor();
      assert.equal(await page.title(), 'Say <b>subject</b> 2 · #1');
      assert.equal(await page.locator('article.follow-up').count(), 1);
      assert.equal(await page.evaluate('Object.keys(localStorage).length + Object.keys(sessionStorage).length + document.cookie.length'), 0, 'the key is not kept');
      await screenshot(page, 'pull-page', 'signed-in');
      // The 401 and 404 of the failed attempts are logged by Chromium; nothing else went wrong.
      assert.deepEqual(tab.errors.filter((e) => !/status of 40[14]/.test(e)), []);
    } finally {
      await tab.close();
    }
  });
});
