import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ApiServices } from '../../../api/services.js';
import { watchedPage } from '../../support/browser.js';
import type { seedOrg } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { acmeServices, answerRecord, serveWithConsole } from './console-harness.js';

const DAY = 86_400_000;

/** The UTC day `days` ago, as a date field holds it. */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

/** Three unanswered questions of acme-docs, each a gap of its own: 2, 20 and 40 days ago. */
const ASKED = [
  { days: 2, question: 'Where is the zephyr option?' },
  { days: 20, question: 'How do I configure quokka?' },
  { days: 40, question: 'Can I export walrus data?' },
];

/**
 * The reports' one period, in headless Chromium over the API: every report starts from the same
 * default, and a period chosen on one is the period of the next, in its URL and in its data.
 */
describe('the console’s period and domain across its pages in a real browser', function () {
  this.timeout(120_000);
  let url = '';
  let services: ApiServices;
  let acme: Awaited<ReturnType<typeof seedOrg>>;

  before(async () => {
    ({ services, acme } = await acmeServices('console-period'));
    const records = ASKED.map(({ days, question }, i) => answerRecord({ id: `msg_period_${i}`, threadId: `thr_period_${i}`, at: Date.now() - days * DAY, question }));
    await services.analytics.store.write(records.map((record) => ({ kind: 'answer' as const, record })));
    url = await serveWithConsole(services);
  });

  async function signedIn(): Promise<Page> {
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.goto(`${url}/console`);
    await tab.page.getByLabel('Admin key').fill(acme.adminKey);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    return tab.page;
  }

  const fields = async (page: Page) => [await page.getByLabel('From', { exact: true }).inputValue(), await page.getByLabel('To', { exact: true }).inputValue()];
  const inUrl = (page: Page) => {
    const q = new URL(page.url()).searchParams;
    return [q.get('from'), q.get('to')];
  };
  const gapTopics = (page: Page) => page.getByRole('list', { name: 'Gaps' }).locator('li.gap h2').allInnerTexts();
  const questions = (page: Page) => page.getByRole('list', { name: 'Conversations' }).locator('.question').allInnerTexts();
  const open = async (page: Page, label: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label }).click();
    await page.getByRole('heading', { name: label, level: 1 }).waitFor();
  };

  it('starts every report from the last 30 days', async () => {
    const page = await signedIn();
    const month = [daysAgo(29), daysAgo(0)];
    assert.deepEqual(await fields(page), month);
    assert.deepEqual(inUrl(page), month);
    await page.locator('[data-total-questions="2"]').waitFor();
    await open(page, 'Gaps');
    assert.deepEqual(await fields(page), month);
    await page.getByRole('list', { name: 'Gaps' }).waitFor();
    assert.equal((await gapTopics(page)).length, 2, 'the two questions of the last 30 days');
  });

  it('keeps the period chosen on one report on the next, in its URL and its data, through other pages and a reload', async () => {
    const page = await signedIn();
    const chosen = [daysAgo(25), daysAgo(10)];
    await page.getByLabel('From', { exact: true }).fill(chosen[0]!);
    await page.getByLabel('To', { exact: true }).fill(chosen[1]!);
    await page.locator('[data-total-questions="1"]').waitFor();
    assert.deepEqual(inUrl(page), chosen);

    await open(page, 'Gaps');
    assert.deepEqual(await fields(page), chosen);
    assert.deepEqual(inUrl(page), chosen);
    await page.getByRole('list', { name: 'Gaps' }).waitFor();
    assert.deepEqual(await gapTopics(page), ['configure, quokka']);

    await open(page, 'Conversations');
    assert.deepEqual(await fields(page), chosen);
    await page.getByRole('list', { name: 'Conversations' }).waitFor();
    assert.deepEqual(await questions(page), ['How do I configure quokka?']);

    // Jobs has no period; the reports after it still have the one chosen.
    await open(page, 'Jobs');
    await open(page, 'Overview');
    assert.deepEqual(await fields(page), chosen);
    await page.locator('[data-total-questions="1"]').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    assert.deepEqual(await fields(page), chosen);
    await page.locator('[data-total-questions="1"]').waitFor();
  });

  it('offers the domain picker on the reports and their threads only, not on Jobs or Settings, which are not per domain', async () => {
    const page = await signedIn();
    const picker = page.locator('header .domain-picker select');
    const pickerShown = async () => (await picker.count()) === 1;
    assert.equal(await pickerShown(), true, 'Overview');
    for (const [label, shown] of [['Conversations', true], ['Gaps', true], ['Jobs', false], ['Settings', false], ['Overview', true]] as const) {
      await open(page, label);
      assert.equal(await pickerShown(), shown, label);
    }
    await page.goto(`${url}/console/conversations/thr_period_0`);
    await page.getByRole('heading', { name: 'Thread', level: 1 }).waitFor();
    assert.equal(await pickerShown(), true, 'a thread');
    assert.equal(await picker.inputValue(), 'acme-docs');
  });
});
