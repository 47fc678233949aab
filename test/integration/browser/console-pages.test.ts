import assert from 'node:assert/strict';
import type { Page, Response, Route } from 'playwright-core';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { screenshot } from './artifacts.js';
import { seedOrg } from '../../support/services.js';
import { consoleWorld, seriousViolations, type ConsoleWorld } from './console-harness.js';

const SUITE = 'console';
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };

/**
 * The console in headless Chromium against the whole API: sign in with the
 * admin key, read the charts fed by questions asked through the real
 * assistant route, open a thread, follow a gap to an agent job and its pull
 * request, sign out and be refused. Each page is checked with axe-core, at
 * 375 px for overflow, and kept as a screenshot in test-artifacts/console/.
 */
describe('the console in a real browser', function () {
  this.timeout(240_000);
  let world: ConsoleWorld;
  let tab: WatchedPage;

  before(async () => {
    world = await consoleWorld();
    const install = await world.ask('How do I install the CLI?');
    const rotate = await world.ask('How do I rotate my API key?');
    await world.ask('rotating api keys safely');
    await world.rate(install, true);
    await world.rate(rotate, false);
    await world.search('install');
    await world.search('install');
    await world.search('webhooks');
    await world.pageView('/guides/install', 'Reader A');
    await world.pageView('/guides/install', 'Reader A');
    await world.pageView('/guides/webhooks', 'Reader B');
    await world.services.completions.flush();
    await world.services.analytics.tick();
    tab = await watchedPage();
    await tab.page.setViewportSize(WIDE);
  });
  after(() => tab?.close());

  /** What a page must pass wherever it is: no serious axe violation, nothing wider than a phone at 375 px, kept as screenshots. */
  async function checkPage(page: Page, name: string) {
    assert.deepEqual(await seriousViolations(page), [], `${name}: axe finds no serious or critical violation`);
    await screenshot(page, SUITE, `${name}-1440`);
    await page.setViewportSize(NARROW);
    // Charts follow their box on the next frames.
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
    const wide = await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${NARROW.width} + 1).map((e) => e.tagName + '.' + e.className).slice(0, 5).join(' ')`);
    assert.ok(width <= NARROW.width, `${name}: ${width} px wide at 375 px (${String(wide)})`);
    await screenshot(page, SUITE, `${name}-375`);
    await page.setViewportSize(WIDE);
  }

  /**
   * The console's own errors (uncaught, refused by the CSP). Chromium also logs
   * each 4xx answer as a failed load: the 401 the sign-in page expects, and
   * the 404 of views and visitors on a server without them, which are not;
   * and the 503 answers these tests make in the server's place.
   */
  const pageErrors = () => tab.errors.filter((e) => !/Failed to load resource: the server responded with a status of (40[134]|503)/.test(e));

  it('signs in with an admin key, refusing an assistant key beside the field, and keeps the key nowhere in the browser', async () => {
    const { page } = tab;
    await page.goto(`${world.url}/console`);
    await page.getByRole('heading', { name: 'Sign in to the Quire console' }).waitFor();
    assert.equal(await page.evaluate('document.activeElement.id'), 'admin-key', 'the key field has the focus');
    await checkPage(page, 'sign-in');

    await page.getByLabel('Admin key').fill(world.org.assistantKey);
    await page.keyboard.press('Enter');
    const error = page.locator('#admin-key-error');
    await error.waitFor();
    assert.match(await error.innerText(), /assistant key/i);
    assert.equal(await page.getByLabel('Admin key').getAttribute('aria-invalid'), 'true');
    await screenshot(page, SUITE, 'sign-in-refused');

    await page.getByLabel('Admin key').fill(world.org.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console/overview');
    const stored = String(await page.evaluate('JSON.stringify([document.cookie, Object.keys(localStorage), Object.keys(sessionStorage)])'));
    assert.equal(stored, '["",[],[]]', 'no script-readable cookie, no storage');
    assert.ok(!(await page.content()).includes(world.org.adminKey), 'the key is not left in the page');
  });

  it('draws the overview charts from the answers asked through the assistant route', async () => {
    const { page } = tab;
    await page.locator('[data-total-questions]').waitFor();
    assert.equal(await page.locator('[data-total-questions]').getAttribute('data-total-questions'), '3');
    const today = new Date().toISOString().slice(0, 10);
    /** The numbers under a chart, as its table shows them: the row of `label`. */
    const row = async (chart: string, label: string) => {
      const figure = page.locator(`figure[data-chart="${chart}"]`);
      assert.equal(await figure.locator('canvas').count(), 1, `${chart} draws a canvas`);
      return figure.locator('tbody tr').filter({ has: page.locator('th', { hasText: label }) }).locator('td').allTextContents();
    };
    assert.deepEqual(await row('chart-questions-per-day', today), ['3']);
    assert.deepEqual(await row('chart-answered-and-unanswered', today), ['1', '2']);
    assert.deepEqual(await row('chart-thumbs-up-and-down', today), ['1', '1']);
    assert.deepEqual(await row('chart-top-searches', 'install'), ['2']);
    assert.deepEqual(await row('chart-top-searches', 'webhooks'), ['1']);
    // The readers' page views and visitors of the day (human; AI traffic is the machines').
    assert.equal((await row('chart-page-views', today))[0], '3');
    assert.equal((await row('chart-visitors', today))[0], '2');
    assert.equal(await page.locator('[role=alert]').count(), 0);
    await checkPage(page, 'overview');
  });

  it('takes a start date typed digit by digit without asking for the years it passes through (0002, 0020…), and says what is missing meanwhile', async () => {
    const { page } = tab;
    const asked: string[] = [];
    const watch = (request: { url(): string }) => {
      const from = new URL(request.url()).searchParams.get('dateFrom');
      if (from) asked.push(from);
    };
    page.on('request', watch);
    try {
      const from = page.getByLabel('From');
      await from.click();
      await from.press('ArrowLeft');
      await from.press('ArrowLeft');
      await page.keyboard.type('03152025', { delay: 150 });
      await page.locator('[data-total-questions]').waitFor();
      await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
      assert.ok(asked.includes('2025-03-15'), `asked for ${asked.join(', ')}`);
      assert.deepEqual(asked.filter((d) => Number(d.slice(0, 4)) < 2000), [], 'no year still being typed reached the API');
      assert.equal(await page.locator('[data-total-questions]').getAttribute('data-total-questions'), '3');
      await from.fill('0002-03-15');
      assert.match(await page.locator('#period-problem').innerText(), /From: choose a year from 2000/);
    } finally {
      page.off('request', watch);
    }
  });

  it('lists conversations, filters them by feedback, and opens a thread with its cited sources and rating', async () => {
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Conversations' }).click();
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    const items = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await items.first().waitFor();
    assert.equal(await items.count(), 3);
    await page.getByLabel('Feedback').selectOption('down');
    assert.deepEqual(await items.locator('.question').allInnerTexts(), ['How do I rotate my API key?']);
    await page.getByLabel('Feedback').selectOption('up');
    assert.deepEqual(await items.locator('.question').allInnerTexts(), ['How do I install the CLI?']);
    await checkPage(page, 'conversations');

    await page.getByRole('link', { name: 'How do I install the CLI?' }).click();
    await page.getByRole('heading', { name: 'Thread', level: 1 }).waitFor();
    const answer = page.locator('.turn.assistant');
    await answer.waitFor();
    assert.ok((await answer.locator('.sources a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).some((h) => h?.startsWith('https://docs.example.com/guides/install')));
    assert.match(await answer.locator('.rating').innerText(), /Thumbs up/);
    assert.match(await page.locator('.turn.user').innerText(), /How do I install the CLI\?/);
    assert.doesNotMatch(await answer.locator('.answer-text').innerText(), /```suggestions|\]\(https?:/, 'the answer as the reader saw it');
    await checkPage(page, 'thread');

    // Opened directly (a bookmark): nothing is asked for before the domain is known.
    const undomained: string[] = [];
    const watch = (request: { url(): string }) => void (/\/analytics\/\//.test(request.url()) && undomained.push(request.url()));
    page.on('request', watch);
    try {
      await page.goto(page.url());
      await page.locator('.turn.assistant').waitFor();
      assert.deepEqual(undomained, []);
      assert.equal(await page.getByText('no such route').count(), 0);
    } finally {
      page.off('request', watch);
    }
    // Back to the listing as it was left: the Thumbs up filter kept.
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    assert.equal(await page.getByLabel('Feedback').inputValue(), 'up');
    assert.deepEqual(await items.locator('.question').allInnerTexts(), ['How do I install the CLI?']);
  });

  it("shows an answer's Markdown as the widget renders it: emphasis, a citation link and code, and its HTML as text that runs nothing", async () => {
    const { page } = tab;
    const asked = await world.ask('How do I install the CLI, formatted?');
    await world.services.completions.flush();
    await world.services.analytics.tick();
    await page.goto(`${world.url}/console/conversations/${asked.threadId}`);
    const answer = page.locator('.turn.assistant');
    await answer.waitFor();
    assert.equal(await answer.locator('em').innerText(), 'No language model is configured');
    assert.equal(await answer.locator('strong').innerText(), 'gist');
    const cite = answer.locator('a.cite');
    assert.equal(await cite.innerText(), '[1]');
    assert.match((await cite.getAttribute('href')) ?? '', /^https:\/\/docs\.example\.com\/guides\/install/, 'the citation links to the page it cites');
    assert.equal(await cite.getAttribute('target'), '_blank');
    assert.equal(await page.locator(`#${(await cite.getAttribute('aria-describedby')) ?? 'none'}`).textContent(), '(opens in a new tab)');
    assert.equal((await answer.locator('pre code').innerText()).trim(), 'npm install -g quire-cli');
    const text = await answer.innerText();
    assert.doesNotMatch(text, /```|\]\(https?:|(^|\s)_No/, 'no Markdown left as text');
    assert.match(text, /<script>document\.title = "ran"<\/script> <img src=x onerror="document\.title = 'ran'">/, 'the HTML shown as text');
    assert.equal(await answer.locator('script, img, [onerror]').count(), 0, 'no element of the HTML');
    assert.notEqual(await page.title(), 'ran');
    assert.deepEqual(pageErrors(), [], 'nothing the CSP refused');
    await checkPage(page, 'thread-formatted');
  });

  it("opens a gap's example question in its thread, for the period chosen, and leads back to Gaps", async () => {
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Gaps' }).click();
    await page.getByRole('heading', { name: 'Gaps', level: 1 }).waitFor();
    const gap = page.locator('li.gap').filter({ hasText: 'How do I rotate my API key?' });
    const examples = gap.locator('.examples a');
    await examples.first().waitFor();
    assert.deepEqual((await examples.allInnerTexts()).sort(), ['How do I rotate my API key?', 'rotating api keys safely'], 'each example links');
    const period = new URL(page.url()).search;
    await gap.getByRole('link', { name: 'rotating api keys safely' }).click();
    await page.getByRole('heading', { name: 'Thread', level: 1 }).waitFor();
    assert.match(await page.locator('.turn.user').innerText(), /rotating api keys safely/);
    const query = new URLSearchParams(new URL(page.url()).search);
    assert.equal(query.get('back'), 'gaps');
    query.delete('back');
    assert.equal(`?${query.toString()}`, period, 'the period goes along');
    await page.getByRole('link', { name: 'Back to gaps' }).click();
    await page.getByRole('heading', { name: 'Gaps', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).search, period, 'back on Gaps, for the same period');
  });

  it('follows a gap to an agent job, its live events, its pull request and a follow-up message', async () => {
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Gaps' }).click();
    await page.getByRole('heading', { name: 'Gaps', level: 1 }).waitFor();
    const gap = page.locator('li.gap').filter({ hasText: 'How do I rotate my API key?' });
    await gap.waitFor();
    assert.deepEqual((await gap.locator('.examples li').allInnerTexts()).sort(), ['How do I rotate my API key?', 'rotating api keys safely']);
    await checkPage(page, 'gaps');

    await gap.getByRole('button', { name: 'Fix with the agent' }).click();
    assert.equal(await gap.getByLabel('Project').inputValue(), 'docs', "the project named as the domain");
    // The opened form takes the focus (the button that had it is gone).
    await gap.locator('select:focus').waitFor({ timeout: 5_000 });
    await gap.getByRole('button', { name: 'Start the job' }).click();
    await page.waitForURL(/\/console\/jobs\/docs\/[^/]+$/);
    const prLink = page.locator('a.pr-link');
    await prLink.waitFor({ timeout: 120_000 });
    const href = (await prLink.getAttribute('href')) ?? '';
    assert.match(href, /\/forge\/docs\/pulls\/\d+/);
    await page.locator('[data-status="completed"]').waitFor({ timeout: 60_000 });
    const events = await page.locator('.events li code').allInnerTexts();
    for (const type of ['turn.started', 'tool.step', 'pull_request.opened', 'job.completed']) assert.ok(events.includes(type), `${type} in ${events.join(', ')}`);
    // Each event says when it happened: the first with its date, all to the second.
    const timeTexts = await page.locator('.events li time').allInnerTexts();
    assert.equal(timeTexts.length, events.length);
    assert.match(timeTexts[0] ?? '', /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} UTC$/);
    for (const text of timeTexts) assert.match(text, /\d{2}:\d{2}:\d{2} UTC$/);
    assert.ok(!Number.isNaN(Date.parse((await page.locator('.events li time').last().getAttribute('datetime')) ?? '')));
    await checkPage(page, 'job');

    // A follow-up message starts the job's next turn, whose events arrive live. The server takes the
    // first send but its answer comes back as the 503 of a worker that did not take it in time: the
    // page says sending again is safe, and the retry names the same message, which is stored once.
    const jobId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    const keys: string[] = [];
    let lose = true;
    await page.route('**/message', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!lose) return route.continue();
      lose = false;
      await route.fetch();
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', error: 'no worker took the message in time; Temporal keeps it' }) });
    });
    const followUp = 'Mention revoking the old key first.';
    await page.getByLabel('Follow-up message').fill(followUp);
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await page.locator('#follow-up-error', { hasText: 'Sending it again is safe' }).waitFor();
    assert.doesNotMatch(await page.locator('#follow-up-error').innerText(), /Temporal/, "not the API's words for developers");
    assert.equal(await page.getByLabel('Follow-up message').inputValue(), followUp, 'the message stays to send again');
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await page.locator('.events li', { hasText: 'turn.started' }).nth(1).waitFor({ timeout: 120_000 });
    assert.equal(await page.getByLabel('Follow-up message').inputValue(), '');
    // Until the turn has ended the page reads the job as its events come, which would find the session gone below.
    await page.locator('.events li code', { hasText: 'job.completed' }).nth(1).waitFor({ timeout: 120_000 });
    assert.equal(keys.length, 2);
    assert.match(keys[0] ?? '', /^[A-Za-z0-9._:-]{8,128}$/, 'an Idempotency-Key the API honours');
    assert.equal(keys[1], keys[0], 'the retry sends the same key');
    const stored = await world.services.database.queries.selectFrom('job_messages').select('id').where('job_id', '=', jobId).where('prompt', '=', followUp).execute();
    assert.equal(stored.length, 1, 'the message is stored once');

    // The session ends while a message is being written: sending asks for the key, and once signed in again the message is still there.
    await page.getByLabel('Follow-up message').fill('Also link the rotation guide.');
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    assert.equal(keys.length, 3);
    assert.notEqual(keys[2], keys[0], 'a new message, sent after the last one went through, has a key of its own');
    await page.unroute('**/message');
    await page.getByLabel('Admin key').fill(world.org.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Follow-up message').waitFor();
    assert.equal(await page.getByLabel('Follow-up message').inputValue(), 'Also link the rotation guide.');
    // Cleared, it is kept no longer.
    await page.getByLabel('Follow-up message').fill('');
    assert.equal(String(await page.evaluate('JSON.stringify(Object.keys(sessionStorage))')), '[]');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
    await page.locator('table.jobs tbody tr').first().waitFor();
    assert.equal(await page.locator('table.jobs tbody tr').count(), 1);
    await checkPage(page, 'jobs');

    // The link names the configured public URL; the test's API listens elsewhere.
    const link = new URL(href, world.url);
    const pull = await page.context().request.get(`${world.url}${link.pathname}${link.search}`);
    assert.equal(pull.status(), 200, 'the pull request link opens');
    assert.match(await pull.text(), /Rotating API keys|api-keys\.mdx/);
  });

  it('is usable with the keyboard: the skip link first, then the navigation, each page taking the focus', async () => {
    const { page } = tab;
    await page.goto(`${world.url}/console/overview`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate('document.activeElement.id'), 'main');
    // Into the navigation from the top: the organisation's domain, sign out, then the links.
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Conversations');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    assert.equal(await page.evaluate('document.activeElement.tagName + " " + document.activeElement.textContent'), 'H1 Conversations');
    const settings = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' });
    await settings.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    assert.equal(await settings.getAttribute('aria-current'), 'page');
  });

  it('says when the domains cannot be read, claims no empty report, and reads them again on Retry or on the next page', async () => {
    const { page } = tab;
    let down = true;
    const domains = (route: Route) =>
      down ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', error: 'the database is unavailable or busy; retry shortly' }) }) : route.continue();
    await page.route('**/v2/admin/domains', domains);
    const undomained: string[] = [];
    const watch = (request: { url(): string }) => void (/\/analytics\/\//.test(request.url()) && undomained.push(request.url()));
    page.on('request', watch);
    try {
      const failed = page.getByRole('alert').filter({ hasText: 'Your domains could not be read' });
      await page.goto(`${world.url}/console/gaps`);
      await page.getByRole('heading', { name: 'Gaps', level: 1 }).waitFor();
      await failed.waitFor();
      await page.getByText('This report needs your list of domains, which could not be read.').waitFor();
      assert.equal(await page.getByText(/No gaps in this period|No questions in this period/).count(), 0, 'no empty report claimed');
      assert.equal(await page.getByLabel('Domain').count(), 0);
      await checkPage(page, 'domains-unreadable');

      // Back: the next page the reader opens reads the list again.
      down = false;
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Conversations' }).click();
      await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().waitFor();
      assert.equal(await failed.count(), 0);

      // Or Retry, where the reader is.
      down = true;
      await page.reload();
      await failed.waitFor();
      assert.equal(await page.getByText('No questions in this period').count(), 0, 'no empty report claimed');
      down = false;
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().waitFor();
      assert.equal(await page.getByLabel('Domain').inputValue(), 'docs');
      assert.deepEqual(undomained, [], 'no report asked for domain ""');
    } finally {
      page.off('request', watch);
      await page.unroute('**/v2/admin/domains', domains);
    }
  });

  it('stays signed in, and says so, when the server refuses to sign out', async () => {
    const { page } = tab;
    await page.goto(`${world.url}/console/overview`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const refuse = (route: Route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', error: 'the database is unavailable or busy; retry shortly' }) })
        : route.continue();
    await page.route('**/console/session', refuse);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('alert').filter({ hasText: 'You are still signed in' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Sign in to the Quire console' }).count(), 0);
    assert.equal(await page.getByLabel('Organisation').innerText(), world.org.orgId);
    await screenshot(page, SUITE, 'sign-out-refused');
    await page.unroute('**/console/session', refuse);

    // The session and its token were kept: signing out again goes through at the first try.
    const answers: number[] = [];
    const watch = (response: Response) => void (response.request().method() === 'DELETE' && answers.push(response.status()));
    page.on('response', watch);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    page.off('response', watch);
    assert.deepEqual(answers, [204]);
    await page.getByLabel('Admin key').fill(world.org.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  });

  it('follows another tab that signs in again: the same organisation goes on, another takes this tab over', async () => {
    const { page } = tab;
    const globex = await seedOrg(world.services, 'globex');
    const other = await tab.context.newPage();
    await other.goto(`${world.url}/console`);
    /** Signs in from the other tab, as its sign-in page does: the shared cookie becomes that session's. */
    const signInThere = async (key: string) => assert.equal(await other.evaluate(async (k) => (await fetch('/console/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: k }) })).status, key), 201);
    const createKey = () => page.getByRole('button', { name: 'Create the key' }).click();
    const keyCount = async (orgId: string) => (await world.services.tenants.listKeys(orgId)).length;
    // Moving within the console, not loading it again: this tab keeps the token it read at sign-in.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Keys' }).click();

    // The same organisation: this tab takes the new session's token and the key is made.
    await signInThere(world.org.adminKey);
    const before = await keyCount(world.org.orgId);
    await createKey();
    await page.locator('#new-secret').waitFor();
    assert.equal(await keyCount(world.org.orgId), before + 1);

    // Another organisation: the request is not sent again, and this tab becomes that organisation's console.
    await signInThere(globex.adminKey);
    await createKey();
    await page.getByLabel('Organisation').filter({ hasText: 'globex' }).waitFor();
    assert.equal(await keyCount('globex'), 2, 'the seeded keys only');
    assert.equal(await keyCount(world.org.orgId), before + 1);
    // An organisation without a domain: its reports say to add one, rather than report on none.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
    await page.locator('main').getByRole('link', { name: 'add one in Settings' }).waitFor();
    assert.equal(await page.locator('[data-total-questions]').count(), 0);

    // Coming back to a tab whose organisation was signed in to elsewhere (reads need no token) does the same.
    await signInThere(world.org.adminKey);
    await page.evaluate(`document.dispatchEvent(new Event('visibilitychange'))`);
    await page.getByLabel('Organisation').filter({ hasText: world.org.orgId }).waitFor();
    await other.close();
  });

  it('signs out: the session ends on the server and the console asks for the key again', async () => {
    const { page } = tab;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the Quire console' }).waitFor();
    await screenshot(page, SUITE, 'signed-out');
    const statuses = String(await page.evaluate(`Promise.all(['/console/session', '/v2/admin/domains', '/v1/analytics/docs/assistant'].map((p) => fetch(p).then((r) => r.status))).then((s) => s.join(','))`));
    assert.equal(statuses, '401,401,401');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the Quire console' }).waitFor();
    assert.deepEqual(pageErrors(), []);
  });
});
