import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.js';
import { screenshot } from './artifacts.js';
import { startPageServer, type PageServer } from './page-server.js';
import { accessibilityTree, ask, docsPage, inWidget, openWidget, widgetFeatures, widgetTag } from './widget-features.js';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { assistantWorld, SITE, type AssistantWorld } from '../assistant/harness.js';
import type { RecordedRequest, Reply } from '../../fakes/chat-completions-server.js';

const LONG_URL = `https://example.com/${'a'.repeat(300)}`;

/** WCAG's contrast ratio of two `rgb(…)` colours, as getComputedStyle gives them. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r = 0, g = 0, bl = 0] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/**
 * The scripted model: a question with "hold" waits until the test lets it
 * answer (the widget mid-answer), "fail" is a provider error, "wide" an
 * answer with a long unbroken URL and code line, and any other one sentence
 * citing the first passage; "plain" is a long answer with no link in it
 * and a wide code block; "code" one with a short one; a question in
 * Arabic is answered in Arabic.
 */
function scripted(held: { release: Array<() => void> }) {
  return async (req: RecordedRequest): Promise<Reply> => {
    const question = String(req.body.messages.at(-1)?.content ?? '');
    if (/hold/i.test(question)) await new Promise<void>((resolve) => held.release.push(resolve));
    if (/fail/i.test(question)) return { error: { status: 400, message: 'bad request' } };
    if (/plain/i.test(question)) return { text: `${Array.from({ length: 40 }, (_, i) => `Step ${i + 1}.`).join('\n\n')}\n\n\`\`\`\n${'z'.repeat(200)}\n\`\`\`` };
    if (/[\u0600-\u06ff]/.test(question)) return { text: 'التثبيت مشروح في هذه الصفحة [1].' };
    if (/code/i.test(question)) return { text: 'Run this [1]:\n\n```\nquire init --site=docs;\n```' };
    if (/wide/i.test(question)) return { text: `See ${LONG_URL} and run \`${'x'.repeat(200)}\` [1].\n\n\`\`\`\n${'y'.repeat(200)}\n\`\`\`` };
    return { text: 'Installation explains this [1].' };
  };
}

/**
 * The widget as readers who use a keyboard, a screen reader, zoom, a small
 * screen or a right-to-left language meet it, in headless Chromium over the
 * real assistant route and the scripted model.
 */
describe('the widget for every reader', function () {
  this.timeout(180_000);
  const held = { release: [] as Array<() => void> };
  let world: AssistantWorld;
  let site: PageServer;
  let tab: WatchedPage;
  afterEach(() => tab.close());

  before(async function () {
    world = await assistantWorld({ script: scripted(held), features: await widgetFeatures() });
    site = await startPageServer();
    const tag = (domain: string, key: string) => widgetTag(world.url, domain, key);
    const page = (attrs: string, body: string) =>
      docsPage('Docs', `<main><h1>Docs</h1>${body}</main>`, attrs, '<meta name="viewport" content="width=device-width, initial-scale=1">');
    site.put('/widget.html', page('lang="en"', `<p>A page of the docs. <a href="#top">Top</a></p>${tag('docs', world.org.assistantKey)}`));
    // A site that sets its root font size to 10px, for rem units of its own.
    site.put('/small-root.html', page('lang="en" style="font-size: 62.5%"', `<p>A page of the docs.</p>${tag('docs', world.org.assistantKey)}`));
    site.put('/rtl.html', page('lang="ar" dir="rtl"', `<p>صفحة من التوثيق.</p>${tag('docs', world.org.assistantKey)}`));
    await world.services.tenants.addOrg('sparing', { assistantPerIpPerDay: 1 });
    const sparing = await world.services.tenants.createKey('sparing', 'assistant');
    await world.services.tenants.putDomain({ id: 'sparing-docs', orgId: 'sparing', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await world.docIndex.applyChanges('sparing-docs', { upserts: SITE, removals: [] });
    site.put('/sparing.html', page('lang="en"', tag('sparing-docs', sparing.secret)));
  });
  after(() => world.close());

  const busy = (page: Page) => inWidget(page, `root.querySelector('.log').getAttribute('aria-busy')`);

  async function open(page: Page, path = '/widget.html') {
    await page.goto(`${site.origin}${path}`);
    await openWidget(page);
  }


  it('axe finds no serious or critical violation closed, open, mid-answer, answered, failed or rate-limited', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    await page.locator('#quire-widget button.launcher').waitFor();
    assert.deepEqual(await seriousViolations(page, ['target-size']), [], 'closed');
    await page.locator('#quire-widget button.launcher').click();
    assert.deepEqual(await seriousViolations(page, ['target-size']), [], 'open');
    await page.fill('#quire-question', 'Please hold: how do I install the CLI?');
    await page.keyboard.press('Enter');
    while (held.release.length === 0) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await busy(page), 'true');
    assert.deepEqual(await seriousViolations(page, ['target-size']), [], 'mid-answer');
    held.release.splice(0).forEach((go) => go());
    await page.waitForFunction(`!document.getElementById('quire-widget').shadowRoot.querySelector('.log').hasAttribute('aria-busy')`);
    await page.locator('#quire-widget .sources a').first().waitFor();
    assert.deepEqual(await seriousViolations(page, ['target-size']), [], 'answered, with sources');
    await page.locator('#quire-widget button', { hasText: 'New conversation' }).click();
    await ask(page, 'The plain long version, please', 1);
    assert.deepEqual(await seriousViolations(page, ['target-size']), [], 'a long answer and code to scroll, with no link in them');
    await ask(page, 'This one will fail', 2);
    await page.locator('#quire-widget .error').waitFor();
    assert.deepEqual(await seriousViolations(page, ['target-size']), [], 'an error');
    await screenshot(page, 'widget-access', 'error');
    await tab.close();

    tab = await watchedPage();
    await open(tab.page, '/sparing.html');
    await ask(tab.page, 'How do I install the CLI?', 1);
    const refused = await ask(tab.page, 'And on Windows?', 2);
    assert.match((await refused.locator('.error').textContent()) ?? '', /^Too many questions/);
    assert.deepEqual(await seriousViolations(tab.page, ['target-size']), [], 'rate-limited');
  });

  it('wraps a long unbroken question, link or code inside its bubble on a 320 px wide screen: nothing to scroll sideways', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.setViewportSize({ width: 320, height: 640 });
    await open(page);
    await ask(page, `Why is this wide? ${LONG_URL}`, 1);
    await screenshot(page, 'widget-access', 'narrow-long-strings');
    const sizes = (await inWidget(
      page,
      `(() => { const box = (el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right });
        return { log: box(root.querySelector('.log')), question: box(root.querySelector('.question')), answer: box(root.querySelector('.answer')), page: document.documentElement.scrollWidth }; })()`,
    )) as Record<'log' | 'question' | 'answer', { scroll: number; client: number; right: number }> & { page: number };
    assert.ok(sizes.question.scroll <= sizes.question.client, `the question stays in its bubble: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.answer.scroll <= sizes.answer.client, `the answer stays in its bubble: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.log.scroll <= sizes.log.client, `the conversation does not scroll sideways: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.page <= 320, `nor does the page: ${JSON.stringify(sizes)}`);
  });

  it('from the keyboard: the launcher opens it into the question box, Enter sends, Shift+Enter breaks the line, Escape closes back to the launcher', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.goto(`${site.origin}/widget.html`);
    await page.locator('#quire-widget button.launcher').focus();
    await page.keyboard.press('Enter');
    assert.equal(await inWidget(page, `root.activeElement?.id`), 'quire-question');
    await page.keyboard.type('How do I install');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('the CLI?');
    assert.equal(await page.locator('#quire-question').inputValue(), 'How do I install\nthe CLI?');
    await page.keyboard.press('Enter');
    await page.locator('#quire-widget .answer .sources a').first().waitFor();
    assert.equal(await page.locator('#quire-widget .question').textContent(), 'How do I install\nthe CLI?');
    const tabOrder: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      tabOrder.push(String(await inWidget(page, `(() => { const a = root.activeElement; return a ? a.getAttribute('aria-label') ?? a.textContent : document.activeElement === document.body ? '(the browser)' : 'page: ' + document.activeElement.textContent; })()`)));
    }
    // The panel is a dialog that leaves the page usable (not modal): past Send, Tab goes on, round to the page and the widget.
    assert.deepEqual(tabOrder, ['Send', '(the browser)', 'page: Top', 'Ask AI', 'New conversation', 'Delete conversation', 'Close', 'Conversation']);
    await page.keyboard.press('Escape');
    assert.equal(await inWidget(page, `root.activeElement?.className`), 'launcher');
    assert.ok(await page.locator('#quire-panel').isHidden());
    assert.equal(await page.locator('#quire-widget button.launcher').getAttribute('aria-expanded'), 'false');
  });

  it('leaves the Enter that confirms an input method\'s word to the input method: the question is not sent half-typed', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    await page.fill('#quire-question', 'インストール');
    // The keydown a browser sends for the Enter that ends a composition (Japanese, Chinese, Korean input methods).
    const handled = await inWidget(
      page,
      `(() => { const input = root.getElementById('quire-question');
        const enter = new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, isComposing: true, bubbles: true, cancelable: true, composed: true });
        const escape = new KeyboardEvent('keydown', { key: 'Escape', isComposing: true, bubbles: true, cancelable: true, composed: true });
        input.dispatchEvent(enter); input.dispatchEvent(escape);
        return { enter: enter.defaultPrevented, escape: escape.defaultPrevented }; })()`,
    );
    assert.deepEqual(handled, { enter: false, escape: false });
    assert.equal(await page.locator('#quire-widget .question').count(), 0, 'nothing was sent');
    assert.equal(await page.locator('#quire-question').inputValue(), 'インストール');
    assert.ok(await page.locator('#quire-panel').isVisible(), 'Escape cancelled the composition, not the panel');
    await page.keyboard.press('Enter');
    await page.locator('#quire-widget .question').waitFor();
    assert.equal(await page.locator('#quire-widget .question').textContent(), 'インストール');
  });

  it('names each citation and source link for the page it opens, as a screen reader lists them', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    const reply = await ask(page, 'How do I install the CLI?', 1);
    await reply.locator('.sources a').first().waitFor();
    const tree = await reply.ariaSnapshot();
    assert.match(tree, /link "\[1\] Installation"/, tree);
    assert.doesNotMatch(tree, /link "\[1\]"/, `no link is only a number: ${tree}`);
    assert.match(tree, /list "Sources":\s+- listitem:\s+- link "Installation"/, tree);
  });

  it('keeps focus where the reader puts it while an answer streams: not lost when Send is pressed, not taken back when it ends', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    const active = () => inWidget(page, `(() => { const a = root.activeElement; return a ? a.id || a.textContent : document.activeElement === document.body ? '(nothing)' : 'page: ' + document.activeElement.textContent; })()`);
    const answered = () => page.waitForFunction(`!document.getElementById('quire-widget').shadowRoot.querySelector('.log').hasAttribute('aria-busy')`);
    const waitHeld = async () => {
      while (held.release.length === 0) await new Promise((r) => setTimeout(r, 20));
    };
    await page.locator('#quire-question').fill('Hold on: how do I install the CLI?');
    await page.keyboard.press('Tab');
    assert.equal(await active(), 'Send');
    await page.keyboard.press('Enter');
    await waitHeld();
    assert.equal(await active(), 'quire-question', 'Send, disabled while the answer comes, hands focus to the question box');
    held.release.splice(0).forEach((go) => go());
    await answered();

    await page.locator('#quire-question').fill('Hold on: and on Windows?');
    await page.keyboard.press('Enter');
    await waitHeld();
    // The reader goes back to the page while the answer comes.
    await page.locator('main a').focus();
    held.release.splice(0).forEach((go) => go());
    await answered();
    assert.equal(await active(), 'page: Top', 'the finished answer does not pull focus back into the widget');
  });

  it('sets each question and answer paragraph in its own text\'s direction, and code left to right, whatever the page\'s direction', async () => {
    tab = await watchedPage();
    const { page } = tab;
    const direction = (selector: string, at = page) => inWidget(at, `getComputedStyle([...root.querySelectorAll('${selector}')].at(-1)).direction`);
    await open(page, '/rtl.html');
    await ask(page, 'Show me the code to install', 1);
    await screenshot(page, 'widget-access', 'rtl-page-english');
    assert.equal(await direction('.question'), 'ltr', 'an English question on an Arabic page');
    assert.equal(await direction('.answer-text p'), 'ltr', 'an English answer on an Arabic page');
    assert.equal(await direction('.answer-text pre'), 'ltr', 'code');
    await tab.close();

    tab = await watchedPage();
    await open(tab.page);
    await tab.page.locator('#quire-question').fill('كيف أثبت الأداة؟');
    assert.equal(await direction('#quire-question', tab.page), 'rtl', 'typing Arabic on an English page');
    await tab.page.keyboard.press('Enter');
    await tab.page.locator('#quire-widget .answer-text p').waitFor();
    await tab.page.waitForFunction(`!document.getElementById('quire-widget').shadowRoot.querySelector('.log').hasAttribute('aria-busy')`);
    await screenshot(tab.page, 'widget-access', 'ltr-page-arabic');
    assert.equal(await direction('.question', tab.page), 'rtl', 'an Arabic question on an English page');
    assert.equal(await direction('.answer-text p', tab.page), 'rtl', 'an Arabic answer on an English page');
  });

  it('fits a short screen, as at 200% and 400% zoom: the question box whole and a few lines of the conversation in view', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    await ask(page, 'How do I install the CLI?', 1);
    // Beside both conversation buttons the title keeps one line; the buttons wrap their words instead.
    const titleLines = await inWidget(page, `(() => { const h = root.querySelector('h2'); return h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).fontSize); })()`);
    assert.ok((titleLines as number) < 2, `the title is on one line: ${String(titleLines)} font sizes high`);
    // 1280×720 at 200%, 1280×1024 at 400%, a phone held sideways.
    for (const [width, height] of [[640, 360], [320, 256], [568, 320]] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, 'widget-access', `viewport-${width}x${height}`);
      const box = (await inWidget(
        page,
        `(() => { const rect = (s) => { const r = root.querySelector(s).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }; };
          return { panel: rect('.panel'), header: rect('header'), log: rect('.log'), form: rect('form'), line: parseFloat(getComputedStyle(root.querySelector('.answer')).lineHeight) }; })()`,
      )) as Record<'panel' | 'header' | 'log' | 'form', { top: number; bottom: number; left: number; right: number; height: number }> & { line: number };
      const at = `${width}×${height}: ${JSON.stringify(box)}`;
      assert.ok(box.panel.top >= 0 && box.panel.bottom <= height && box.panel.left >= 0 && box.panel.right <= width, `the panel is on screen, ${at}`);
      assert.ok(box.header.top >= box.panel.top && box.form.bottom <= box.panel.bottom, `its header and question box are whole, ${at}`);
      const outside = await inWidget(page, `[...root.querySelectorAll('header > *')].filter((e) => { const r = e.getBoundingClientRect(), p = root.querySelector('header').getBoundingClientRect(); return r.left < p.left || r.right > p.right; }).map((e) => e.textContent)`);
      assert.deepEqual(outside, [], `every control of the header is within it, ${at}`);
      assert.ok(box.log.height >= 4 * box.line, `four lines of the conversation show, ${at}`);
      // A launcher the panel covers would take focus out of sight (WCAG 2.4.11).
      const covered = await inWidget(
        page,
        `(() => { const l = root.querySelector('.launcher'); const r = l.getBoundingClientRect(); return r.width > 0 && root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== l; })()`,
      );
      assert.ok(!covered, `no control the keyboard reaches sits hidden under the panel, ${at}`);
    }
    await page.keyboard.press('Escape');
    assert.equal(await inWidget(page, `root.activeElement?.className`), 'launcher');
    assert.ok(await page.locator('#quire-widget button.launcher').isVisible());
  });

  it('shows keyboard focus on every control with a ring of at least 3:1 against what surrounds it', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    await ask(page, 'Show me the code to install', 1);
    await page.locator('#quire-widget .sources a').first().waitFor();
    await page.locator('#quire-widget button.launcher').focus();
    const rings: Array<{ what: string; style: string; width: number; color: string; behind: string }> = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const ring = (await inWidget(
        page,
        `(() => { const a = root.activeElement; if (!a) return null; const s = getComputedStyle(a);
          // What the ring is drawn on: the nearest box behind it with a colour (the page's white at the last).
          let behind = 'rgb(255, 255, 255)';
          for (let n = s.outlineOffset.startsWith('-') ? a : a.parentElement; n && n !== root; n = n.parentElement) { const c = getComputedStyle(n).backgroundColor; if (c !== 'rgba(0, 0, 0, 0)') { behind = c; break; } }
          return { what: a.getAttribute('aria-label') || a.id || a.className || a.tagName, style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor, behind }; })()`,
      )) as (typeof rings)[number] | null;
      if (ring) rings.push(ring);
    }
    assert.ok(rings.length >= 8, JSON.stringify(rings));
    for (const ring of rings) {
      assert.ok(ring.style !== 'none' && ring.width >= 2, `a ring on ${ring.what}: ${JSON.stringify(ring)}`);
      assert.ok(contrast(ring.color, ring.behind) >= 3, `${ring.what}: ${ring.color} on ${ring.behind} is ${contrast(ring.color, ring.behind).toFixed(2)}:1`);
    }
  });

  it('gives a screen reader each answer or error once, whole, when it is complete: not every token, nor nothing', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    // Tokens a little apart, so the answer is painted in several frames, as a real model's is.
    world.model!.chunkDelayMs = 30;
    try {
      // Every change that leaves a live region with something to say, batched as the browser hands them to assistive technology, and whether it was busy.
      await inWidget(
        page,
        `(() => { window.spoken = [];
          const live = (node) => { for (let n = node.nodeType === 1 ? node : node.parentElement; n && n !== root; n = n.parentElement) {
            const politeness = n.getAttribute('aria-live'); if (politeness) return politeness !== 'off' ? n : null;
            if (['log', 'status', 'alert'].includes(n.getAttribute('role'))) return n; } return null; };
          // A region is touched where a node changes, and where a node that is a region of its own (an alert) arrives.
          new MutationObserver((records) => { const regions = new Set(records.flatMap((r) => [r.target, ...r.addedNodes].map(live)).filter(Boolean));
            for (const region of regions) if (region.textContent) window.spoken.push({ busy: region.closest('[aria-busy=true]') !== null, text: region.textContent }); })
            .observe(root, { childList: true, characterData: true, subtree: true }); })()`,
      );
      for (const [n, question] of ['How do I install the CLI?', 'And how are webhooks signed, and how do I install on Windows?'].entries()) {
        const reply = await ask(page, question, n + 1);
        // As it reads on screen: words of separate blocks (two suggested pages) apart.
        const text = await reply.locator('.answer-text').innerText();
        const spoken = (await page.evaluate('window.spoken.splice(0)')) as Array<{ busy: boolean; text: string }>;
        // Not through a region marked busy: some screen readers (NVDA) never read what changed while it was, others read each change.
        assert.deepEqual(spoken, [{ busy: false, text: 'Answering…' }, { busy: false, text }], `answer ${n + 1} reaches a live region once, whole, after word that it is coming`);
      }
      // An error is said too, as the answer would be: once, and not from inside the busy conversation.
      const failed = await ask(page, 'This will fail', 3);
      const error = (await failed.locator('.error').textContent()) ?? '';
      assert.equal(error, 'The language model could not answer; please try again.');
      // The server's message stays folded beneath it, and is not said: the reader opens it if they want it.
      assert.match((await failed.locator('details[lang="en"]').textContent()) ?? '', /returned an error \(HTTP 400\)\. \(model_failed\)$/);
      const spoken = (await page.evaluate('window.spoken.splice(0)')) as Array<{ busy: boolean; text: string }>;
      assert.deepEqual(spoken, [{ busy: false, text: 'Answering…' }, { busy: false, text: error }], 'the error reaches a live region once');
    } finally {
      world.model!.chunkDelayMs = 0;
    }
  });

  it('sizes its text from the reader\'s browser font size: a larger default font grows all of it, the page\'s own root size leaves it be', async () => {
    const WHAT = ['.launcher', 'h2', '.new', 'textarea', 'form button', '.question', '.answer-text p', '.cite', '.answer code', '.sources', '.sources-title'];
    const sizes = async (path: string, defaultFontPx?: number) => {
      tab = await watchedPage();
      if (defaultFontPx) {
        // The reader's setting (chrome://settings/fonts), as the browser's default font size.
        const cdp = await tab.page.context().newCDPSession(tab.page);
        await cdp.send('Page.setFontSizes', { fontSizes: { standard: defaultFontPx } });
      }
      await open(tab.page, path);
      await ask(tab.page, 'Show me the code to install', 1);
      await tab.page.locator('#quire-widget .sources-title').waitFor();
      const px = (await inWidget(tab.page, `${JSON.stringify(WHAT)}.map((s) => parseFloat(getComputedStyle(root.querySelector(s)).fontSize))`)) as number[];
      await tab.close();
      return Object.fromEntries(WHAT.map((s, i) => [s, px[i] ?? 0]));
    };
    const normal = await sizes('/widget.html');
    assert.equal(normal['.answer-text p'], 14, `the answer's text is 14px at the default 16px: ${JSON.stringify(normal)}`);
    const larger = await sizes('/widget.html', 24);
    for (const what of WHAT) assert.ok(Math.abs((larger[what] ?? 0) - 1.5 * (normal[what] ?? 0)) < 0.5, `${what} grows with the reader's font size, 16px to 24px: ${normal[what]}px to ${larger[what]}px`);
    assert.deepEqual(await sizes('/small-root.html'), normal, 'a page whose root is 10px does not shrink it');
    tab = await watchedPage();
  });

  it('leaves the answer once in the accessibility tree after saying it: the status region\'s copy goes', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    // Text nodes that read the answer, and the status region's words, as Chromium gives them to assistive technology.
    const readings = async () => {
      const tree = await accessibilityTree(page);
      return { answer: tree.filter((n) => n.role === 'StaticText' && n.name.includes('Installation explains this')).length, status: tree.filter((n) => n.role === 'status').length };
    };
    await ask(page, 'How do I install the CLI?', 1);
    assert.match(String(await inWidget(page, `root.querySelector('[role=status]').textContent`)), /^Installation explains this/, 'the status region says the answer');
    const announced = await page
      .waitForFunction(`document.getElementById('quire-widget').shadowRoot.querySelector('[role=status]').textContent === ''`, undefined, { timeout: 15_000 })
      .then(() => true, () => false);
    assert.ok(announced, 'once said, the status region lets the answer go');
    assert.deepEqual(await readings(), { answer: 1, status: 1 }, 'the answer is in the tree once, its status region still there for the next');

    // A reader who moves into the conversation is reading the answer already: the copy goes at once.
    await ask(page, 'How do I install the CLI?', 2);
    assert.notEqual(await inWidget(page, `root.querySelector('[role=status]').textContent`), '');
    await page.locator('#quire-widget .log').focus();
    assert.deepEqual(await readings(), { answer: 2, status: 1 });
  });

  it('draws the question box\'s edge at 3:1 or more against the panel, so the reader sees where to type', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    const edge = (await inWidget(page, `[getComputedStyle(root.querySelector('textarea')).borderTopColor, getComputedStyle(root.querySelector('.panel')).backgroundColor]`)) as [string, string];
    assert.ok(contrast(...edge) >= 3, `the question box's edge, ${edge[0]} on ${edge[1]}: ${contrast(...edge).toFixed(2)}:1`);
  });

  it('stays one light panel on a page that asks for dark controls (color-scheme: dark)', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${site.origin}/widget.html`);
    await page.evaluate(`document.head.append(Object.assign(document.createElement('meta'), { name: 'color-scheme', content: 'dark' }))`);
    await page.locator('#quire-widget button.launcher').click();
    const colours = (await inWidget(page, `[getComputedStyle(root.querySelector('textarea')).backgroundColor, getComputedStyle(root.querySelector('textarea')).color, getComputedStyle(root.querySelector('.panel')).backgroundColor]`)) as string[];
    const [box, text, panel] = colours as [string, string, string];
    assert.equal(box, panel, 'the question box as light as the panel around it');
    assert.ok(contrast(text, box) >= 4.5, `its text, ${text} on ${box}`);
  });

  it('gives the launcher and Send an edge where the system\'s forced colours (Windows contrast themes) take their fill away', async () => {
    tab = await watchedPage();
    await tab.page.emulateMedia({ forcedColors: 'active' });
    await open(tab.page);
    await screenshot(tab.page, 'widget-access', 'forced-colors');
    const borders = (await inWidget(tab.page, `['.launcher', 'form button'].map((s) => { const c = getComputedStyle(root.querySelector(s)); return s + ' ' + c.borderTopStyle + ' ' + c.borderTopWidth; })`)) as string[];
    for (const border of borders) assert.doesNotMatch(border, / (none|hidden) | 0px$/, border);
  });

  it('spaces its sources so each link is a target a finger or a shaky hand can hit (WCAG 2.2 target size)', async () => {
    tab = await watchedPage();
    const { page } = tab;
    await open(page);
    const reply = await ask(page, 'How do I install the CLI on Windows, and how are webhooks signed?', 1);
    await reply.locator('.sources a').nth(1).waitFor();
    await screenshot(page, 'widget-access', 'sources');
    assert.deepEqual(await seriousViolations(page, ['target-size']), []);
  });
});
