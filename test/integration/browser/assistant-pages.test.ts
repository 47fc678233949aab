import assert from 'node:assert/strict';
import { widgetFeatures } from './widget-features.js';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { assistantWorld, type AssistantWorld } from '../assistant/harness.js';
import { bundlePage, htmlPage, startPageServer, type PageServer } from './page-server.js';

const FIRST = 'Install it with npm install -g quire-cli [1].';
// The model's second answer says how much history reached it: the thread continued.
const SECOND = (messages: number) => `On Windows, run the installer from PowerShell [1]. (${messages} messages)`;
const INSTALL_URL = 'https://docs.example.com/guides/install#install-the-cli';

/**
 * Real front-ends in headless Chromium, served from another origin than the
 * API: an AI SDK 5 `useChat` page (v2), an AI SDK 4 `useChat` page (v1, the
 * Mintlify embed way), and the widget on a plain HTML page. The assistant
 * answers through the scripted model server (it stands for an
 * OpenAI-compatible provider).
 */
describe('the assistant in a real browser, from another origin', function () {
  this.timeout(180_000);
  let world: AssistantWorld;
  let site: PageServer;

  before(async function () {
    world = await assistantWorld({
      script: (req) => {
        const question = String(req.body.messages.at(-1)?.content ?? '');
        if (/Windows/.test(question)) return { text: SECOND(req.body.messages.length) };
        if (/unsafe/.test(question)) return { text: 'Careful <img src=x onerror="window.pwned=1"> and [a trap](javascript:window.pwned=2) [1].' };
        return { text: FIRST };
      },
      features: await widgetFeatures(),
    });
    await world.services.tenants.putDomain({
      id: 'portal',
      orgId: world.org.orgId,
      source: '.',
      docsPath: '',
      baseUrl: 'https://portal.example.com',
      includeHidden: false,
      allowedOrigins: ['https://docs.portal.example.com'],
    });
    site = await startPageServer();
    assert.notEqual(new URL(site.origin).origin, new URL(world.url).origin);
    site.put('/ai5.js', await bundlePage('ai5-chat.ts'));
    site.put('/ai4.js', await bundlePage('ai4-chat.ts'));
    const config = (domain: string) => ({ api: world.url, domain, key: world.org.assistantKey });
    site.put('/ai5.html', htmlPage('AI SDK 5 chat', config('docs'), '/ai5.js'));
    site.put('/ai4.html', htmlPage('AI SDK 4 chat', config('docs'), '/ai4.js'));
    site.put('/ai5-portal.html', htmlPage('AI SDK 5 chat, portal', config('portal'), '/ai5.js'));
    // The host page's CSS tries to reach the widget's elements; the shadow root keeps it out.
    site.put(
      '/widget.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs</title>
<style>button { display: none !important; } .answer, .log { visibility: hidden !important; }</style></head>
<body><h1>Skylark docs</h1><p>Some page of the docs.</p>
<script src="${world.url}/widget.js" data-domain="docs" data-key="${world.org.assistantKey}" data-docs-url="https://docs.example.com" async></script>
</body></html>`,
    );
  });
  after(() => world.close());

  let tab: WatchedPage;
  afterEach(() => tab.close());

  const threadOf = async (threadId: string) => {
    const res = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as { exchanges: Array<{ question: string }> };
  };

  /** Asks on one of the useChat pages and waits for the n-th answer to finish. */
  async function askOnPage(question: string, n: number) {
    const { page } = tab;
    await page.fill('#question', question);
    await page.click('button[type=submit]');
    const answer = page.locator('article[data-role=assistant]').nth(n - 1);
    await answer.locator('.suggestions a').first().waitFor();
    await page.locator('#status', { hasText: 'ready' }).waitFor();
    return answer;
  }

  for (const [name, file] of [
    ['AI SDK 5 useChat (v2)', '/ai5.html'],
    ['AI SDK 4 useChat with the data protocol (v1): sources from the search tool invocation', '/ai4.html'],
  ] as const) {
    it(`${name}: shows the answer, source links and suggestion links, and the thread continues on the second question`, async () => {
      tab = await watchedPage();
      await tab.page.goto(site.origin + file);
      const first = await askOnPage('How do I install the CLI?', 1);
      // The page shows the raw text: the marker arrives as a Markdown link to the cited page.
      assert.equal(await first.locator('.text').textContent(), FIRST.replace('[1]', `[[1]](${INSTALL_URL})`));
      assert.ok((await first.locator('.sources a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).includes(INSTALL_URL));
      assert.equal(await first.locator('.suggestions a').first().textContent(), 'Installation');
      assert.equal(await first.locator('.suggestions a').first().getAttribute('href'), '/guides/install');
      const threadId = await tab.page.locator('#thread').textContent();
      assert.match(threadId ?? '', /^[0-9a-f-]{36}$/);

      const second = await askOnPage('And on Windows?', 2);
      // System prompt, question 1, answer 1, question 2: the page's history went through.
      const linkedSecond = /^On Windows, run the installer from PowerShell \[\[1\]\]\(https:\/\/docs\.example\.com\/guides\/install#[a-z-]+\)\. \(4 messages\)$/;
      assert.match((await second.locator('.text').textContent()) ?? '', linkedSecond);
      assert.equal(await tab.page.locator('#thread').textContent(), threadId, 'the same thread');
      assert.deepEqual((await threadOf(threadId!)).exchanges.map((x) => x.question), ['How do I install the CLI?', 'And on Windows?']);
      assert.deepEqual(tab.errors, []);
    });
  }

  it('a page on an origin the domain does not allow is refused on the request', async () => {
    tab = await watchedPage();
    await tab.page.goto(`${site.origin}/ai5-portal.html`);
    await tab.page.fill('#question', 'How do I install the CLI?');
    await tab.page.click('button[type=submit]');
    await tab.page.locator('#error').waitFor();
    assert.equal(await tab.page.locator('article[data-role=assistant]').count(), 0);
    // Chromium says why: the request's answer (403) has no Allow-Origin; the preflight passed, as for any domain.
    assert.ok(tab.errors.some((e) => /blocked by CORS policy: No 'Access-Control-Allow-Origin' header/.test(e)), tab.errors.join('\n'));
  });

  it('the widget: keyboard-operable, streams the answer with sources and suggestions, renders Markdown safely, keeps the thread', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    const launcher = page.locator('#quire-widget button.launcher');
    await launcher.waitFor();
    assert.ok(await launcher.isVisible(), "the host page's CSS does not hide it");
    await launcher.focus();
    await page.keyboard.press('Enter');
    assert.equal(await launcher.getAttribute('aria-expanded'), 'true');
    // Evaluated in the page (strings: this file is compiled without the DOM library).
    const inShadow = (expression: string) => page.evaluate(`document.getElementById('quire-widget').shadowRoot.activeElement?.${expression}`);
    const focused = () => inShadow('id');
    assert.equal(await focused(), 'quire-question', 'focus moves to the question box');

    await page.keyboard.type('How do I install the CLI?');
    await page.keyboard.press('Enter');
    const answers = page.locator('#quire-widget .answer');
    await answers.nth(0).locator('.suggestions a').first().waitFor();
    assert.equal(await answers.nth(0).locator('.answer-text p').first().textContent(), FIRST);
    assert.equal(await answers.nth(0).locator('.sources a').first().getAttribute('href'), INSTALL_URL);
    assert.equal(await answers.nth(0).locator('.suggestions a').first().textContent(), 'Installation');
    assert.equal(await answers.nth(0).locator('.suggestions a').first().getAttribute('href'), 'https://docs.example.com/guides/install');
    const saved = await page.evaluate(`Object.entries(localStorage).find(([k]) => k.startsWith('quire-widget:'))?.[1]`);
    const thread = JSON.parse(String(saved)) as { threadId: string; threadKey: string };
    assert.ok(thread.threadId && thread.threadKey.startsWith('tk_'), 'thread id and key in localStorage');

    await page.locator('#quire-question').waitFor({ state: 'visible' });
    await page.fill('#quire-widget textarea', 'And on Windows?');
    await page.keyboard.press('Enter');
    await answers.nth(1).locator('.suggestions a').first().waitFor();
    // The widget sends only the new question: the history comes from the stored thread (its id and key).
    assert.equal(await answers.nth(1).locator('.answer-text p').first().textContent(), SECOND(4));

    await page.fill('#quire-widget textarea', 'Is this unsafe?');
    await page.keyboard.press('Enter');
    await answers.nth(2).locator('.suggestions a').first().waitFor();
    assert.equal(await answers.nth(2).locator('img').count(), 0, 'HTML in an answer is shown as text');
    assert.match((await answers.nth(2).locator('.answer-text').textContent()) ?? '', /<img src=x/);
    assert.equal(await answers.nth(2).locator('a[href^="javascript"]').count(), 0);
    assert.equal(await page.evaluate('window.pwned'), undefined);
    assert.deepEqual((await threadOf(thread.threadId)).exchanges.length, 3);

    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#quire-panel').isHidden(), true);
    assert.equal(await inShadow('className'), 'launcher', 'focus is back on the launcher');

    // A new page of the site: the widget picks the thread up again from localStorage.
    await page.reload();
    await launcher.click();
    await page.fill('#quire-widget textarea', 'And on Windows?');
    await page.keyboard.press('Enter');
    await answers.nth(0).locator('.suggestions a').first().waitFor();
    assert.match((await answers.nth(0).locator('.answer-text p').first().textContent()) ?? '', /\(8 messages\)/);
    assert.equal((await threadOf(thread.threadId)).exchanges.length, 4);
    assert.deepEqual(tab.errors, []);
  });
});
