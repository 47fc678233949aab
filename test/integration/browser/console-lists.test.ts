import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ApiServices } from '../../../api/services.js';
import type { AnswerRecord } from '../../../core/analytics/index.js';
import { newJobRecord } from '../../../core/jobs/index.js';
import { watchedPage } from '../../support/browser.js';
import type { seedOrg } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { screenshot } from './artifacts.js';
import { acmeServices, answerRecord, seriousViolations, serveWithConsole } from './console-harness.js';

const MINUTE = 60_000;
const JOBS = 60;
const ANSWERS = 1001;
const GAPS = 55;

/** A recorded answer of acme-docs, `minutes` ago. */
function answer(n: number, minutes: number, question: string, resolution: AnswerRecord['resolution']): AnswerRecord {
  const answered = resolution === 'answered';
  return answerRecord({
    id: `msg_list_${n}`,
    at: Date.now() - minutes * MINUTE,
    question,
    answer: answered ? 'It is in the guide [1].' : 'The documentation does not say.',
    resolution,
    unansweredReason: answered ? null : 'no_citation',
  });
}

/** A word no other question has: each question is a gap of its own. */
const word = (i: number) => `zephyr${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;

/**
 * The console's listings longer than a page, in headless Chromium over the API: jobs of two
 * projects (more than one page of one), more gaps than one page, and more conversations than the
 * page reads of a period. The records are stored as the API and the worker store them.
 */
describe('the console’s long lists in a real browser', function () {
  this.timeout(120_000);
  let url = '';
  let services: ApiServices;
  let acme: Awaited<ReturnType<typeof seedOrg>>;

  before(async () => {
    ({ services, acme } = await acmeServices('console-lists'));
    for (const id of ['handbook', 'api-ref']) await services.tenants.putProject({ id, orgId: 'acme', repository: `/srv/${id}.git`, branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const job = (projectId: string, minutes: number) => ({ ...newJobRecord({ projectId, repository: `/srv/${projectId}.git`, ref: 'main', model: 'test-model' }, new Date(Date.now() - minutes * MINUTE)), status: 'completed' as const });
    // handbook: a job a minute for an hour, more than a page (50); api-ref: one job among its first page, one among its second.
    for (let i = 0; i < JOBS; i++) await services.jobs.create(job('handbook', i));
    await services.jobs.create(job('api-ref', 30.5));
    await services.jobs.create(job('api-ref', 55.5));

    const answered = Array.from({ length: ANSWERS }, (_, i) => answer(i, i, `How do I install version ${i}?`, 'answered'));
    const unanswered = Array.from({ length: GAPS }, (_, i) => answer(ANSWERS + i, i, `Where is the ${word(i)} option?`, 'unanswered'));
    await services.analytics.store.write([...answered, ...unanswered].map((record) => ({ kind: 'answer' as const, record })));

    url = await serveWithConsole(services);
  });

  async function signedIn(at: string): Promise<Page> {
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.goto(`${url}/console`);
    await tab.page.getByLabel('Admin key').fill(acme.adminKey);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await tab.page.goto(`${url}${at}`);
    return tab.page;
  }

  const createdTimes = (page: Page) => page.locator('table.jobs tbody time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime') ?? ''));

  it('lists the jobs of every project newest first, and reads older ones on request', async () => {
    const page = await signedIn('/console/jobs');
    const rows = page.locator('table.jobs tbody tr');
    await rows.first().waitFor();
    // handbook's newest 50 and api-ref's job among them; its older one waits until handbook's older jobs are read.
    assert.equal(await rows.count(), 51);
    const first = await createdTimes(page);
    assert.deepEqual(first, [...first].sort().reverse(), 'newest first');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'console', 'jobs-load-older');

    await page.getByRole('button', { name: 'Load older jobs' }).click();
    await rows.nth(JOBS + 1).waitFor();
    assert.equal(await rows.count(), JOBS + 2);
    const all = await createdTimes(page);
    assert.deepEqual(all, [...all].sort().reverse(), 'newest first');
    assert.equal(await page.getByRole('button', { name: 'Load older jobs' }).count(), 0, 'nothing more to read');
  });

  it('reads the gaps of the period past their first page', async () => {
    const page = await signedIn('/console/gaps');
    const gaps = page.getByRole('list', { name: 'Gaps' }).locator('li.gap');
    await gaps.first().waitFor();
    assert.equal(await gaps.count(), 50);
    await page.getByRole('button', { name: 'Load more gaps' }).click();
    await gaps.nth(GAPS - 1).waitFor();
    assert.equal(await gaps.count(), GAPS);
    assert.equal(await page.getByRole('button', { name: 'Load more gaps' }).count(), 0, 'nothing more to read');
  });

  it('says when a period holds more conversations than the page reads', async () => {
    const page = await signedIn('/console/conversations');
    const items = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await items.first().waitFor();
    assert.equal(await items.count(), 1000);
    assert.match(await page.locator('[data-limited=conversations]').innerText(), /Showing the newest 1,000 conversations of this period/);
    assert.equal(await page.locator('[data-limited=feedback]').count(), 0, 'every rating was read');
  });
});
