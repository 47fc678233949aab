import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ApiServices } from '../../../api/services.js';
import { browser } from '../../support/browser.js';
import type { seedOrg } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { screenshot } from './artifacts.js';
import { acmeServices, answerRecord, seriousViolations, serveWithConsole } from './console-harness.js';


/** A recorded answer of acme-docs a minute ago, answered but rated down: the period's one gap. */
const ANSWER = answerRecord({ id: 'msg_first_steps', answer: 'Keys are listed in the dashboard [1].' });

/**
 * The console of an organisation starting out, in headless Chromium over the API: a domain readers
 * have asked one question of, another nobody has asked anything yet, no project and so no job. Each
 * empty page must say what it lacks and where to go next, rather than claim a result it does not
 * have; the browser is set to Paris time, which the key expiry field must name.
 */
describe('the console of an organisation starting out, in a real browser', function () {
  this.timeout(120_000);
  let url = '';
  let services: ApiServices;
  let acme: Awaited<ReturnType<typeof seedOrg>>;

  before(async () => {
    ({ services, acme } = await acmeServices('console-first-steps', ['acme-docs', 'quiet-docs']));
    await services.analytics.store.write([{ kind: 'answer', record: ANSWER }]);
    url = await serveWithConsole(services);
  });

  /** Signed in, on `at`, reporting on `domain`, in a browser whose clock reads Paris time. */
  async function signedIn(at: string, domain = 'acme-docs'): Promise<Page> {
    const context = await (await browser()).newContext({ timezoneId: 'Europe/Paris' });
    onSuiteEnd(() => context.close());
    const page = await context.newPage();
    await page.goto(`${url}/console`);
    await page.getByLabel('Admin key').fill(acme.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByLabel('Domain').selectOption(domain);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: at }).click();
    await page.getByRole('heading', { name: at, level: 1 }).waitFor();
    const loading = page.locator('[role=status]', { hasText: 'Loading' });
    while ((await loading.count()) > 0) await loading.first().waitFor({ state: 'detached' });
    return page;
  }

  it('says a period nobody asked in has no gaps for want of questions, not that the docs answered them all', async () => {
    const page = await signedIn('Gaps', 'quiet-docs');
    const empty = page.locator('main p.empty');
    await empty.waitFor();
    assert.match(await empty.innerText(), /^No questions in this period/);
    assert.doesNotMatch(await empty.innerText(), /answered every question/);
    assert.equal(await empty.getByRole('link', { name: 'Settings, Domains' }).getAttribute('href'), '/console/settings/domains');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'console', 'gaps-no-questions');
  });

  it('offers no project to choose for a gap when there is none: it says to add one, and links there', async () => {
    const page = await signedIn('Gaps');
    const gap = page.locator('li.gap').filter({ hasText: 'How do I rotate my API key?' });
    await gap.waitFor();
    assert.equal(await gap.getByRole('button', { name: 'Fix with the agent' }).count(), 0, 'no form that offers nothing to start the job on');
    const link = gap.getByRole('link', { name: 'add the docs repository as a project' });
    assert.match(await gap.locator('.no-project').innerText(), /To fix it with the agent, first add the docs repository as a project in Settings\./);
    await screenshot(page, 'console', 'gaps-no-project');
    await link.click();
    await page.getByRole('heading', { name: 'Settings: Projects', level: 1 }).waitFor();
  });

  it('says why a listing of conversations is empty: nobody asked, or the feedback filter left every question out', async () => {
    const quiet = await signedIn('Conversations', 'quiet-docs');
    const none = quiet.locator('main p.empty');
    await none.waitFor();
    assert.match(await none.innerText(), /^No questions in this period\. Readers' questions to the assistant show here once the widget is on your docs site/);
    assert.equal(await none.getByRole('link', { name: 'Settings, Domains' }).getAttribute('href'), '/console/settings/domains');

    const page = await signedIn('Conversations');
    await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().waitFor();
    await page.getByLabel('Feedback').selectOption('up');
    assert.equal(await page.locator('main p.empty').innerText(), 'None of the 1 question of this period was rated thumbs up.');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'console', 'conversations-filtered-out');
    await page.getByRole('button', { name: 'Show all conversations' }).click();
    assert.equal(await page.getByLabel('Feedback').inputValue(), 'all');
    assert.deepEqual(await page.locator('.question').allInnerTexts(), ['How do I rotate my API key?']);
  });

  it('points an empty list of jobs to the two places jobs start from', async () => {
    const page = await signedIn('Jobs');
    const empty = page.locator('main p.empty');
    await empty.waitFor();
    assert.equal(await empty.getByRole('link', { name: 'Gaps' }).getAttribute('href'), '/console/gaps');
    assert.equal(await empty.getByRole('link', { name: 'Settings, Automations' }).getAttribute('href'), '/console/settings/automations');
  });

  it("names the browser's time zone a key's expiry is typed in, and the moment in UTC as the list of keys shows it", async () => {
    const page = await signedIn('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Keys' }).click();
    const hint = page.locator('#new-key-expires-hint');
    assert.match(await hint.innerText(), /in your browser's time zone \(Europe\/Paris\)/);
    // Noon in Paris in June is 10:00 UTC (summer time).
    await page.getByLabel('Expires').fill('2030-06-01T12:00');
    await hint.filter({ hasText: 'That is 1 Jun 2030, 10:00 UTC, as the list shows it.' }).waitFor();
    await page.getByRole('button', { name: 'Create the key' }).click();
    await page.locator('#new-secret').waitFor();
    const created = (await services.tenants.listKeys('acme')).find((k) => k.expiresAt);
    assert.equal(created?.expiresAt && new Date(created.expiresAt).toISOString(), '2030-06-01T10:00:00.000Z');
    await page.locator(`tr[data-key-id="${created?.id}"] td[data-label=Expires]`, { hasText: '1 Jun 2030, 10:00 UTC' }).waitFor();
    assert.doesNotMatch(await hint.innerText(), /That is/, 'the form is empty again, and so is the moment it read');
  });
});
