import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import { pullsRouter } from '../../../api/pulls/index.js';
import type { ApiServices } from '../../../api/services.js';
import { Limiter } from '../../../core/limits/index.js';
import { watchedPage } from '../../support/browser.js';
import { serve } from '../../support/services.js';
import { engineFixture } from '../agent-engine/setup.js';

describe("the local forge's prLink in a real browser", function () {
  this.timeout(120_000);

  it('opens by itself (its token, no key) and shows the title, the body as Markdown and the diff', async () => {
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'topic 2', new_text: 'subject 2' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say <b>subject</b> 2', summary: 'Rewords **page 2**. <script>window.pwned=1</script>' } }] },
      ],
    });
    const turn = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('web1', ['Reword page 2'])));
    const pr = await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({ jobId: 'web1', projectId: 'docs', branch: 'quire/web1', turn: 1, title: turn.title, summary: turn.summary, messageIds: ['m1-0'], filesChanged: turn.filesChanged, validationErrors: [], draft: false }),
    );
    const api: ApiServices = { ...f.services, limiter: new Limiter({ redis: undefined, onStoreError: 'open', metrics: f.services.metrics.limits }), temporal: undefined as never, probes: {} };
    const { url } = await serve(createApp(api, [pullsRouter]));
    // The prLink names the configured public URL; the page is the same one on the test server.
    const link = new URL(pr.url);
    const tab = await watchedPage();
    try {
      const response = await tab.page.goto(url + link.pathname + link.search);
      assert.equal(response?.status(), 200);
      const { page } = tab;
      assert.equal(await page.locator('h1').textContent(), '#1 Say <b>subject</b> 2');
      assert.equal(await page.locator('article.body strong').first().textContent(), 'page 2', 'Markdown is rendered');
      assert.equal(await page.locator('article.body h3', { hasText: 'Requested' }).count(), 1);
      assert.equal(await page.locator('article.body blockquote').textContent(), '\nReword page 2\n');
      assert.match((await page.locator('article.body').textContent()) ?? '', /<script>window\.pwned=1<\/script>/, 'HTML is shown as text');
      assert.equal(await page.evaluate('window.pwned'), undefined);
      assert.match((await page.locator('.diff .add').first().textContent()) ?? '', /^\+This page explains subject 2/);
      assert.match((await page.locator('.diff .del').first().textContent()) ?? '', /^-This page explains topic 2/);
      assert.deepEqual(tab.errors, []);

      const wrong = await page.goto(`${url}${link.pathname}?token=pv_wrong`);
      assert.equal(wrong?.status(), 404);
    } finally {
      await tab.close();
    }
  });
});
