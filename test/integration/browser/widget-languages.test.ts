import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.js';
import { screenshot } from './artifacts.js';
import { startPageServer, type PageServer } from './page-server.js';
import { accessibilityTree, ask, docsPage, inWidget, openWidget, widgetFeatures, widgetTag } from './widget-features.js';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { startRedis } from '../../support/redis.js';
import type { RecordedRequest, Reply } from '../../fakes/chat-completions-server.js';
import { assistantWorld, SITE, type AssistantWorld } from '../assistant/harness.js';

/** What the widget's own words and the reader's text are marked as: the nearest `lang` inside the widget, else the page's. */
const LANGS = `(() => { const lang = (el) => el && (el.closest('[lang]') ?? document.documentElement).getAttribute('lang');
  return { root: root.querySelector('.root').getAttribute('lang'),
    own: ['.launcher', 'h2', '.new', 'header button[aria-label]', 'label', 'form button', '.log'].map((s) => lang(root.querySelector(s))),
    reader: { question: lang(root.querySelector('.question')), answer: lang(root.querySelector('.answer-text')), input: lang(root.querySelector('textarea')) } }; })()`;

interface Langs {
  root: string;
  own: string[];
  reader: Record<'question' | 'answer' | 'input', string | null>;
}

/** The widget's words as a reader meets them: on its controls, and said by its status region. */
const OWN_WORDS = `({ launcher: root.querySelector('.launcher').textContent, placeholder: root.querySelector('textarea').placeholder,
  send: root.querySelector('form button').textContent, close: root.querySelector('header button[aria-label]').getAttribute('aria-label'),
  empty: root.querySelector('.empty')?.textContent, label: root.querySelector('label').textContent })`;

/**
 * The scripted model: a question with "panne" breaks off mid-answer, "longue" is cut at the model's output
 * limit, "occupé" is refused by a rate-limited provider; any other is one sentence citing the first passage.
 */
function scripted(req: RecordedRequest): Reply {
  const question = String(req.body.messages.at(-1)?.content ?? '');
  if (/panne/.test(question)) return { failMidStream: { text: 'On installe la CLI avec npm puis', afterChars: 10 } };
  if (/longue/.test(question)) return { text: 'On installe la CLI avec', finishReason: 'length' };
  if (/occupé/.test(question)) return { error: { status: 429, message: 'provider says slow down', retryAfterSeconds: 1 } };
  return { text: 'Installation explains this [1].' };
}

/**
 * What of an answer's failure a reader meets outside any `lang="en"` element, and what inside: the widget's own
 * sentence in the reader's language, and the server's English message folded beneath it, marked as English.
 */
const FAILURE = (n: number) => `(() => { const answer = root.querySelectorAll('.answer')[${n - 1}];
  const walker = document.createTreeWalker(answer, NodeFilter.SHOW_TEXT); const own = []; const english = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) { if (t.parentElement.closest('.answer-text')) continue;
    (t.parentElement.closest('[lang]')?.getAttribute('lang') === 'en' ? english : own).push(t.textContent); }
  return { error: answer.querySelector('.error')?.textContent, own, english: english.join(' '), folded: !answer.querySelector('details')?.open }; })()`;

interface FailureSeen {
  error: string | undefined;
  own: string[];
  english: string;
  folded: boolean;
}

/**
 * The widget for readers in other languages, in headless Chromium over the real assistant route and the
 * scripted model: its own words in the page's language (or the one `data-language` names), its root marked
 * with that language, and the reader's question and answer left in the page's.
 */
describe('the widget in the reader\'s language', function () {
  this.timeout(180_000);
  let world: AssistantWorld;
  let site: PageServer;
  let tab: WatchedPage;
  afterEach(() => tab.close());

  before(async function () {
    world = await assistantWorld({ script: scripted, features: await widgetFeatures() });
    site = await startPageServer();
    const page = (attrs: string, extra = '', domain = 'docs', key = world.org.assistantKey) =>
      docsPage('Docs', `<main><h1>Docs</h1>${widgetTag(world.url, domain, key, extra)}</main>`, attrs);
    site.put('/fr.html', page('lang="fr"'));
    site.put('/pt-br.html', page('lang="pt-BR"'));
    site.put('/zh-cn.html', page('lang="ZH-cn"'));
    site.put('/zh-tw.html', page('lang="zh-TW"'));
    site.put('/zh-hk.html', page('lang="zh-HK"'));
    site.put('/zh-hant.html', page('lang="zh-Hant"'));
    site.put('/zh-sg.html', page('lang="zh-SG"'));
    site.put('/klingon.html', page('lang="tlh"'));
    site.put('/no-lang.html', page(''));
    site.put('/de-asks-ja.html', page('lang="de"', ' data-language="ja"'));
    site.put('/fr-asks-unknown.html', page('lang="fr"', ' data-language="xx-YY"'));
    await world.services.tenants.addOrg('sparing-lang', { assistantPerIpPerDay: 1 });
    const sparing = await world.services.tenants.createKey('sparing-lang', 'assistant');
    await world.services.tenants.putDomain({ id: 'sparing-lang-docs', orgId: 'sparing-lang', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await world.docIndex.applyChanges('sparing-lang-docs', { upserts: SITE, removals: [] });
    site.put('/sparing-fr.html', page('lang="fr"', '', 'sparing-lang-docs', sparing.secret));
  });
  after(() => world.close());

  async function open(path: string): Promise<Page> {
    tab = await watchedPage();
    await tab.page.goto(`${site.origin}${path}`);
    await openWidget(tab.page);
    return tab.page;
  }

  it('speaks French on a page in French, marks its root lang="fr", and forces no language on the answer', async () => {
    const page = await open('/fr.html');
    assert.deepEqual(await inWidget(page, OWN_WORDS), {
      launcher: 'Demander à l’IA',
      placeholder: 'Posez une question…',
      send: 'Envoyer',
      close: 'Fermer',
      empty: 'Posez une question sur la documentation.',
      label: 'Votre question',
    });
    await ask(page, 'Comment installer la CLI ?', 1);
    await page.locator('#quire-widget .sources a').first().waitFor();
    await screenshot(page, 'widget-languages', 'french');
    const langs = (await inWidget(page, LANGS)) as Langs;
    assert.equal(langs.root, 'fr');
    assert.deepEqual(new Set(langs.own), new Set(['fr']), JSON.stringify(langs));
    assert.deepEqual(langs.reader, { question: 'fr', answer: 'fr', input: 'fr' }, 'inherited from the root, the page\'s language too');
    assert.equal(await inWidget(page, `root.querySelector('.answer-text').hasAttribute('lang')`), false, 'no lang forced on the answer');
    assert.equal(await page.locator('#quire-widget button', { hasText: 'Nouvelle conversation' }).count(), 1);
    assert.deepEqual(await seriousViolations(page, ['target-size']), []);
  });

  it('tells a screen reader, in the widget\'s language, that each link of an answer opens in a new tab', async () => {
    const page = await open('/fr.html');
    const reply = await ask(page, 'Comment installer la CLI ?', 1);
    await reply.locator('.sources a').first().waitFor();
    const opening = (await inWidget(page, `[...root.querySelectorAll('a[target=_blank]')].length`)) as number;
    const links = (await accessibilityTree(page)).filter((node) => node.role === 'link');
    // The citation, the suggested page and the source, each opening a new tab.
    assert.ok(links.length >= 3 && links.length === opening, JSON.stringify({ opening, links }));
    for (const link of links) assert.equal(link.description, '(s’ouvre dans un nouvel onglet)', JSON.stringify(link));
    assert.ok(links.some((link) => link.name === '[1] Installation'), 'the description adds to the name, it does not replace it');
  });

  it('says a refusal it words itself (too many questions) in the page\'s language, the server\'s English only folded and marked lang="en"', async () => {
    const page = await open('/sparing-fr.html');
    await ask(page, 'Comment installer la CLI ?', 1);
    const refused = await ask(page, 'Et sous Windows ?', 2);
    assert.match((await refused.locator('.error').textContent()) ?? '', /^Trop de questions pour le moment ; veuillez réessayer (dans \d+ (secondes?|minutes?)|à partir de .+)\.$/);
    const seen = (await inWidget(page, FAILURE(2))) as FailureSeen;
    assert.deepEqual(seen.own, [seen.error, 'Détails (en anglais)'], 'nothing else outside lang="en"');
    assert.match(seen.english, /^rate limit '.+' reached: 1 per day \(rate_limited\)$/);
    assert.equal(seen.folded, true);
    assert.deepEqual(await seriousViolations(page, ['target-size']), []);
  });

  it('says an outage (503 unavailable) in French, with when to ask again from its Retry-After', async () => {
    // The rate limits in a real redis-server, refused while it is down (fail-closed): the API answers 503 `unavailable`.
    const redis = await startRedis();
    const down = await assistantWorld({ env: { REDIS_URL: redis.url, QUIRE_RATE_LIMIT_ON_STORE_ERROR: 'closed' }, features: await widgetFeatures() });
    try {
      site.put('/outage-fr.html', docsPage('Docs', `<main><h1>Docs</h1>${widgetTag(down.url, 'docs', down.org.assistantKey)}</main>`, 'lang="fr"'));
      const page = await open('/outage-fr.html');
      await redis.stop();
      await ask(page, 'Comment installer la CLI ?', 1);
      const seen = (await inWidget(page, FAILURE(1))) as FailureSeen;
      assert.match(seen.error ?? '', /^L’assistant est indisponible pour le moment ; veuillez réessayer dans \d+\ssecondes?\.$/);
      assert.deepEqual(seen.own, [seen.error, 'Détails (en anglais)'], 'nothing else outside lang="en"');
      assert.match(seen.english, /unavailable.*\(unavailable\)$/);
      assert.deepEqual(await seriousViolations(page, ['target-size']), []);
    } finally {
      await down.close();
    }
  });

  for (const [question, code, said] of [
    ['Et en cas de panne ?', 'model_failed', 'Le modèle de langage n’a pas pu répondre ; veuillez réessayer.'],
    ['La version longue, svp', 'output_limit', 'La réponse a été interrompue : elle a atteint la longueur maximale du modèle de langage.'],
    ['Le modèle est-il occupé ?', 'model_rate_limited', 'Le modèle de langage est surchargé ; veuillez réessayer dans un instant.'],
  ] as const) {
    it(`says an answer's stream error (${code}) in French, by the code the stream gives, the server's English folded and marked lang="en"`, async () => {
      const page = await open('/fr.html');
      const reply = await ask(page, question, 1);
      const seen = (await inWidget(page, FAILURE(1))) as FailureSeen;
      assert.equal(seen.error, said);
      assert.deepEqual(seen.own, [said, 'Détails (en anglais)'], 'nothing else outside lang="en"');
      assert.match(seen.english, new RegExp(`language model.*\\(${code}\\)$`));
      assert.equal(seen.folded, true);
      // The reader who opens it reads the server's message, in English, marked so.
      await reply.locator('summary').click();
      assert.equal(await reply.locator('details[lang="en"]').getAttribute('open'), '');
      await screenshot(page, 'widget-languages', `french-${code}`);
      assert.deepEqual(await seriousViolations(page, ['target-size']), []);
    });
  }

  it('matches the page\'s language on its primary subtag whatever the case or region, and falls back to English', async () => {
    const cases: Array<[string, string, string]> = [
      ['/pt-br.html', 'pt-BR', 'Perguntar à IA'],
      ['/zh-cn.html', 'zh-Hans', '询问 AI'],
      ['/zh-tw.html', 'zh-Hant', '詢問 AI'],
      ['/zh-hk.html', 'zh-Hant', '詢問 AI'],
      ['/zh-hant.html', 'zh-Hant', '詢問 AI'],
      ['/zh-sg.html', 'zh-Hans', '询问 AI'],
      ['/klingon.html', 'en', 'Ask AI'],
      ['/no-lang.html', 'en', 'Ask AI'],
    ];
    for (const [path, lang, launcher] of cases) {
      const page = await open(path);
      const seen = { lang: await inWidget(page, `root.querySelector('.root').getAttribute('lang')`), launcher: await page.locator('#quire-widget .launcher').textContent() };
      assert.deepEqual(seen, { lang, launcher }, path);
      await tab.close();
    }
    tab = await watchedPage();
  });

  it('speaks Traditional Chinese on a zh-TW page: its controls, its root marked zh-Hant, and an axe scan clean', async () => {
    const page = await open('/zh-tw.html');
    assert.deepEqual(await inWidget(page, OWN_WORDS), {
      launcher: '詢問 AI',
      placeholder: '輸入問題…',
      send: '傳送',
      close: '關閉',
      empty: '請提出關於文件的問題。',
      label: '你的問題',
    });
    await ask(page, '如何安裝 CLI？', 1);
    await page.locator('#quire-widget .sources a').first().waitFor();
    const langs = (await inWidget(page, LANGS)) as Langs;
    assert.equal(langs.root, 'zh-Hant');
    assert.deepEqual(new Set(langs.own), new Set(['zh-Hant']), JSON.stringify(langs));
    assert.deepEqual(langs.reader, { question: 'zh-TW', answer: 'zh-TW', input: 'zh-TW' }, 'the reader\'s text keeps the page\'s tag');
    assert.equal(await page.locator('#quire-widget button', { hasText: '新對話' }).count(), 1);
    await screenshot(page, 'widget-languages', 'traditional-chinese');
    assert.deepEqual(await seriousViolations(page, ['target-size']), []);
  });

  it('speaks the language data-language names over the page\'s, and keeps the reader\'s question and answer in the page\'s', async () => {
    const page = await open('/de-asks-ja.html');
    assert.equal(await page.locator('#quire-widget .launcher').textContent(), 'AI に質問');
    assert.equal(await page.locator('#quire-question').getAttribute('placeholder'), '質問を入力…');
    await ask(page, 'Wie installiere ich die CLI?', 1);
    const langs = (await inWidget(page, LANGS)) as Langs;
    assert.equal(langs.root, 'ja');
    assert.deepEqual(new Set(langs.own), new Set(['ja']), JSON.stringify(langs));
    assert.deepEqual(langs.reader, { question: 'de', answer: 'de', input: 'de' }, 'the reader writes, and is answered, in the page\'s language');
    assert.deepEqual(await seriousViolations(page, ['target-size']), []);
    await tab.close();

    // A language the widget does not speak: the page's comes next.
    const other = await open('/fr-asks-unknown.html');
    assert.equal(await inWidget(other, `root.querySelector('.root').getAttribute('lang')`), 'fr');
    assert.equal(await other.locator('#quire-widget .launcher').textContent(), 'Demander à l’IA');
  });
});
