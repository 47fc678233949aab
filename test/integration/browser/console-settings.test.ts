import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createHmac, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { ScheduleNotFoundError } from '@temporalio/client';
import type { Page } from 'playwright-core';
import { createApp } from '../../../api/app.js';
import { domainPollScheduleId } from '../../../core/contracts/index.js';
import { consoleRouter } from '../../../api/console/index.js';
import { FEATURES } from '../../../api/features.js';
import type { ApiServices, Feature } from '../../../api/services.js';
import { widgetRouter } from '../../../api/widget/index.js';
import { openDocIndex } from '../../../core/retrieval/index.js';
import { newWebhook } from '../../../core/webhooks/index.js';
import { buildConsole } from '../../../infra/build-console.js';
import { buildWidget } from '../../../infra/build-widget.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { watchedPage, type WatchedPage } from '../../support/browser.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, tempDir, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { screenshot } from './artifacts.js';
import { startPageServer, type PageServer } from './page-server.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const AXE = path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const DOCS_SITE = 'https://docs.acme.example';
/** The push hook's secret, in the API's variable ACME_DOCS_PUSH_SECRET. */
const PUSH_SECRET = `push-${randomUUID()}`;
const execFileAsync = promisify(execFile);
/**
 * What Chromium logs for the answers the pages expect: the session check before
 * signing in (401), a domain never indexed (404), a form the API refused (400).
 */
const EXPECTED_REFUSALS = /status of 40[014] /;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe-core's findings on the page as it is now. Evaluated through the
 * DevTools protocol: the console's CSP refuses inline scripts, a test's too.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(await fs.readFile(AXE, 'utf8'));
  const violations = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)')) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The console's Settings in headless Chromium over the real stack: the built
 * console, the API with its session cookie, a worker indexing a real git
 * repository, the widget on a docs site of another origin and the scripted
 * model server (standing for an OpenAI-compatible provider).
 */
describe('console Settings in a real browser', function () {
  this.timeout(240_000);
  let url = '';
  let services: ApiServices;
  let acme: Awaited<ReturnType<typeof seedOrg>>;
  let site: PageServer;
  let repoTip = '';
  let tab: WatchedPage;

  before(async () => {
    const taskQueue = `console-settings-${randomUUID()}`;
    const model = await startFakeModel(() => ({ text: 'Page 1 explains the setup [1].' }));
    // Admins may name docs folders under /srv on this server (the second domain below).
    const built = await testServices({ taskQueue, env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', QUIRE_ADMIN_LOCAL_PATHS: '/srv', ACME_DOCS_PUSH_SECRET: PUSH_SECRET } });
    // The API and the worker share one embedded index, as on one machine.
    const shared = { ...built, docIndex: openDocIndex(built.config, undefined) };
    await startWorker(shared, { taskQueue });
    services = shared;
    acme = await seedOrg(services, 'acme');
    const repo = await createDocsRepo({ pages: 4, withNav: true });
    repoTip = (await execFileAsync('git', ['rev-parse', `refs/heads/${repo.branch}`], { cwd: repo.bareDir })).stdout.trim();
    await services.tenants.putDomain({ id: 'acme-docs', orgId: 'acme', source: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, baseUrl: DOCS_SITE, includeHidden: false });
    await services.tenants.putProject({ id: 'handbook', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: '', forge: 'local', allowedModels: [] });

    const consoleDir = await tempDir('quire-console-');
    await buildConsole(consoleDir, REPO_ROOT);
    const bundlePath = path.join(await tempDir('quire-widget-'), 'widget.js');
    await buildWidget(bundlePath, REPO_ROOT);
    const features: Feature[] = FEATURES.map((f) =>
      f === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : f === widgetRouter ? (s: ApiServices) => widgetRouter(s, { bundlePath }) : f,
    );
    url = (await serve(createApp({ ...services, answers: built.answers }, features), services.config.http)).url;
    site = await startPageServer();
    site.put(
      '/docs.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs</title></head><body><h1>Docs</h1>
<script src="${url}/widget.js" data-domain="acme-docs" data-key="${acme.assistantKey}" async></script></body></html>`,
    );
  });
  afterEach(() => tab?.close());

  async function signIn(width = 1440) {
    tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.setViewportSize({ width, height: 900 });
    await tab.page.goto(`${url}/console/settings`);
    await tab.page.fill('#admin-key', acme.adminKey);
    await tab.page.click('button[type=submit]');
    await tab.page.locator('h1', { hasText: 'Settings: Domains' }).waitFor();
    return tab.page;
  }

  /** Until no part of the page says it is loading (page.waitForFunction would eval, which the CSP refuses). */
  async function loaded(page: Page) {
    const loading = page.locator('[role=status]', { hasText: 'Loading' });
    while ((await loading.count()) > 0) await loading.first().waitFor({ state: 'detached' });
  }

  async function openSection(page: Page, label: string) {
    await page.click(`nav[aria-label=Settings] >> text=${label}`);
    await page.locator('h1', { hasText: `Settings: ${label}` }).waitFor();
  }

  it('creates a key, shows its secret once, and revokes it', async () => {
    const page = await signIn();
    await openSection(page, 'Keys');
    const before = (await services.tenants.listKeys('acme')).length;
    await page.selectOption('#new-key-kind', 'assistant');
    await page.click('text=Create the key');
    const secret = (await page.locator('#new-secret').textContent()) ?? '';
    assert.match(secret, /^quire_dsc_[A-Za-z0-9_-]{43}$/);
    // The secret shown once is where the focus goes (the form that made it is out of view).
    await page.locator('#new-secret-heading:focus').waitFor({ timeout: 5_000 });
    const created = await services.tenants.authenticate(secret);
    assert.ok(created, 'the secret shown is a live key');
    assert.equal((await services.tenants.listKeys('acme')).length, before + 1);
    await screenshot(page, 'console', 'settings-keys-created');
    assert.deepEqual(await seriousViolations(page), []);

    await page.click('text=Done');
    assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is gone from the page');
    const row = page.locator(`tr[data-key-id="${created.id}"]`);
    assert.match((await row.textContent()) ?? '', /quire_dsc_.{4}…/);
    await row.locator('button', { hasText: 'Revoke' }).click();
    await row.locator('button', { hasText: 'now' }).click();
    await row.locator('text=Revoked').waitFor();
    assert.equal(await services.tenants.authenticate(secret), undefined, 'the revoked key no longer works');
    await screenshot(page, 'console', 'settings-keys-revoked');

    // The API's schema checks the form: an expiry in the past is refused beside the field.
    await page.fill('#new-key-expires', '2001-01-01T00:00');
    await page.click('text=Create the key');
    const beside = page.locator('#new-key-expires-error');
    await beside.waitFor();
    assert.match((await beside.textContent()) ?? '', /future|past|after/i);
    assert.equal(await page.getAttribute('#new-key-expires', 'aria-invalid'), 'true');
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it('re-indexes a domain, shows its progress and commit, and restricting its origins refuses the widget elsewhere', async () => {
    const page = await signIn();
    const card = page.locator('li.domain', { hasText: 'acme-docs' });
    await card.locator('text=Not indexed yet.').waitFor();
    await card.locator('button', { hasText: 'Re-index acme-docs' }).click();
    await card.locator('[data-status=completed]').waitFor({ timeout: 120_000 });
    assert.equal(await card.locator('code.commit').textContent(), repoTip.slice(0, 12));
    await screenshot(page, 'console', 'settings-domains-indexed');
    assert.deepEqual(await seriousViolations(page), []);
    // The snippet is ready to copy, for this API and domain.
    assert.equal(await card.locator('#widget-acme-docs-tag').textContent(), `<script src="${url}/widget.js" data-domain="acme-docs" data-key="quire_dsc_…" async></script>`);

    // Any origin yet: the widget answers on the docs site served elsewhere.
    const docs = await watchedPage();
    onSuiteEnd(() => docs.close());
    const ask = async () => {
      await docs.page.goto(`${site.origin}/docs.html`);
      await docs.page.locator('#quire-widget button.launcher').click();
      await docs.page.fill('#quire-question', 'How do I set it up?');
      await docs.page.keyboard.press('Enter');
      const answer = docs.page.locator('#quire-widget .answer').first();
      await answer.waitFor();
      await docs.page.waitForFunction(`!document.getElementById('quire-widget').shadowRoot.querySelector('.log').hasAttribute('aria-busy')`);
      return answer;
    };
    assert.match((await (await ask()).locator('.answer-text').textContent()) ?? '', /Page 1 explains the setup/);

    // A bad origin is refused beside the field, with the API's own message.
    const origins = card.locator('textarea[name=allowedOrigins]');
    await origins.fill('not an origin');
    await card.locator('button', { hasText: 'Save' }).click();
    const error = card.locator('#domain-acme-docs-origins-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /http\(s\) URL/);
    await screenshot(page, 'console', 'settings-domains-field-error');

    await origins.fill(DOCS_SITE);
    await card.locator('button', { hasText: 'Save' }).click();
    await card.locator('text=Saved.').waitFor();
    assert.deepEqual((await services.tenants.getDomain('acme-docs'))?.allowedOrigins, [DOCS_SITE]);
    await screenshot(page, 'console', 'settings-domains-restricted');

    const refused = await ask();
    assert.equal(await refused.locator('.error').textContent(), 'The assistant could not be reached.');
    assert.ok(docs.errors.some((e) => /blocked by CORS policy/.test(e)), docs.errors.join('\n'));
    await screenshot(docs.page, 'console', 'widget-refused-elsewhere');
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it('says in a sentence why a domain whose docs folder the repository lacks failed to index, never naming a path of the server', async () => {
    const acmeDocs = await services.tenants.getDomain('acme-docs');
    assert.ok(acmeDocs);
    await services.tenants.putDomain({ ...acmeDocs, id: 'acme-nofolder', docsPath: 'no-such-folder' });
    try {
      const page = await signIn();
      const card = page.locator('li.domain', { hasText: 'acme-nofolder' });
      await card.locator('button', { hasText: 'Re-index acme-nofolder' }).click();
      await card.locator('[data-status=failed]').waitFor({ timeout: 120_000 });
      const why = card.locator('.index-error');
      assert.equal(await why.getAttribute('data-error-code'), 'docs_folder_missing');
      const said = (await why.textContent()) ?? '';
      assert.match(said, /^The docs folder “no-such-folder” is not in the repository on branch \S+ at the commit fetched\. Correct the domain's docs folder or branch, or push the folder, then re-index\.$/);
      assert.doesNotMatch(await card.locator('section.indexing').innerText(), /ENOENT|no such file|\/tmp\/|\/[\w.-]+\/[\w.-]+\//, 'no error of the worker, no path of the server');
      // The API says what kind of failure it was, and its message names no path of the server either.
      const status = (await (await fetch(`${url}/v2/admin/domains/acme-nofolder/index`, { headers: { authorization: `Bearer ${acme.adminKey}` } })).json()) as { errorCode: string; error: string };
      assert.equal(status.errorCode, 'docs_folder_missing');
      assert.doesNotMatch(status.error, /ENOENT|\/tmp\//);
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot(page, 'console', 'settings-domains-index-failed');
    } finally {
      await services.tenants.deleteDomain('acme-nofolder');
    }
  });

  it("shows a domain's push hook, and sets and clears the variable of its secret from the domain's settings", async () => {
    const page = await signIn();
    const card = page.locator('li.domain', { hasText: 'acme-docs' });
    const hookUrl = card.locator('#push-acme-docs-url');
    const secret = card.locator('#push-acme-docs-secret');
    const field = card.locator('input[name=pushSecretEnv]');
    const save = () => card.locator('button', { hasText: 'Save' }).click();
    /** A GitHub ping to the URL the page shows, signed with the secret: 200 once the domain names the variable, 404 before. */
    const ping = async () => {
      const body = JSON.stringify({ zen: 'Design for failure.', hook_id: 1 });
      const signature = `sha256=${createHmac('sha256', PUSH_SECRET).update(body).digest('hex')}`;
      return (await fetch((await hookUrl.textContent()) ?? '', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'ping', 'X-Hub-Signature-256': signature }, body })).status;
    };

    // The URL is this API's, for this domain; no variable named yet, and what goes where at each forge.
    assert.equal(await hookUrl.textContent(), `${url}/v2/hooks/domains/acme-docs/push`);
    assert.equal(await secret.getAttribute('data-configured'), 'false');
    assert.match((await secret.textContent()) ?? '', /None yet/);
    const forges = (await card.locator('ul.forges').textContent()) ?? '';
    assert.match(forges, /GitHub: .*Payload URL: the URL above; Content type: application\/json; Secret: the secret/);
    assert.match(forges, /GitLab: .*URL: the URL above; Secret token: the secret/);
    assert.equal(await ping(), 404);

    // A name that is not a variable's is refused beside the field, with the API's own message.
    await field.fill('not a variable');
    await save();
    const error = card.locator('#domain-acme-docs-push-secret-env-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /environment variable name/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');

    await field.fill('ACME_DOCS_PUSH_SECRET');
    await save();
    await card.locator('#push-acme-docs-secret[data-configured=true]').waitFor();
    assert.equal(await secret.locator('code').textContent(), 'ACME_DOCS_PUSH_SECRET');
    assert.equal((await services.tenants.getDomain('acme-docs'))?.pushSecretEnv, 'ACME_DOCS_PUSH_SECRET');
    assert.doesNotMatch((await page.content()) ?? '', new RegExp(PUSH_SECRET), 'the page shows the variable, never its value');
    assert.equal(await ping(), 200, 'the URL shown is the hook, and the secret in the variable signs for it');
    await screenshot(page, 'console', 'settings-domains-push-hook');
    assert.deepEqual(await seriousViolations(page), []);

    // Read again from the API, the page shows what it holds.
    await page.reload();
    await card.locator('#push-acme-docs-secret[data-configured=true]').waitFor();
    assert.equal(await field.inputValue(), 'ACME_DOCS_PUSH_SECRET');

    // Cleared: the domain takes no pushes again.
    await field.fill('');
    await save();
    await card.locator('#push-acme-docs-secret[data-configured=false]').waitFor();
    assert.equal((await services.tenants.getDomain('acme-docs'))?.pushSecretEnv, undefined);
    assert.equal(await ping(), 404);
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it("sets a domain's poll interval from its settings, refusing one out of range beside the field, and clearing it stops polling", async () => {
    const page = await signIn();
    const card = page.locator('li.domain', { hasText: 'acme-docs' });
    const field = card.locator('input[name=pollMinutes]');
    const save = () => card.locator('button', { hasText: 'Save' }).click();
    /** The domain as the admin API answers it, and whether its poll schedule exists in Temporal. */
    const readBack = async () => {
      const res = await fetch(`${url}/v2/admin/domains/acme-docs`, { headers: { Authorization: `Bearer ${acme.adminKey}` } });
      assert.equal(res.status, 200);
      const scheduled = await (await temporalEnv()).client.schedule
        .getHandle(domainPollScheduleId('acme-docs'))
        .describe()
        .then(
          (d) => d.spec.intervals?.[0]?.every,
          (err: unknown) => (err instanceof ScheduleNotFoundError ? null : Promise.reject(err)),
        );
      return { pollMinutes: ((await res.json()) as { pollMinutes?: number }).pollMinutes, every: scheduled === null || scheduled === undefined ? scheduled : Number(scheduled) };
    };

    // Off at first: the field is empty, and says what polling does.
    assert.equal(await field.inputValue(), '');
    assert.equal(await field.getAttribute('placeholder'), 'off');
    assert.match((await card.locator('#domain-acme-docs-poll-minutes-hint').textContent()) ?? '', /5 to 1440.*re-indexes when it has a new commit\. Empty: not polled\./);

    // Out of range: the API's own message beside the field, and nothing changes.
    await field.fill('2');
    await save();
    const error = card.locator('#domain-acme-docs-poll-minutes-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /must be at least 5 minutes/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await readBack(), { pollMinutes: undefined, every: null });

    await field.fill('30');
    await save();
    await card.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
    assert.equal(await error.count(), 0);
    assert.deepEqual(await readBack(), { pollMinutes: 30, every: 30 * 60_000 });
    await page.reload();
    await loaded(page);
    assert.equal(await field.inputValue(), '30');

    // Cleared: the domain is no longer polled, and its schedule is gone.
    await field.fill('');
    await save();
    await card.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
    assert.deepEqual(await readBack(), { pollMinutes: undefined, every: null });
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it("sets a domain's language from the API's list, shows it, and clears it back to English", async () => {
    const page = await signIn();
    const card = page.locator('li.domain', { hasText: 'acme-docs' });
    const field = card.locator('select[name=language]');
    const save = () => card.locator('button', { hasText: 'Save' }).click();
    const readBack = async () => {
      const res = await fetch(`${url}/v2/admin/domains/acme-docs`, { headers: { Authorization: `Bearer ${acme.adminKey}` } });
      assert.equal(res.status, 200);
      return ((await res.json()) as { language?: string }).language;
    };
    // Its branch and docs folder are shown to change too.
    assert.equal(await card.locator('input[name=docsPath]').inputValue(), (await services.tenants.getDomain('acme-docs'))?.docsPath);

    // Not set at first: English; the choices are the API's languages.
    await card.locator('select[name=language] option', { hasText: 'German (de)' }).waitFor({ state: 'attached' });
    assert.equal(await field.inputValue(), '');
    const offered = (await field.locator('option').evaluateAll((options) => options.map((o) => (o as { value: string }).value))) as string[];
    const { languages } = (await (await fetch(`${url}/v2/admin/languages`, { headers: { Authorization: `Bearer ${acme.adminKey}` } })).json()) as { languages: string[] };
    assert.deepEqual(offered, ['', ...languages]);

    await field.selectOption('de');
    await save();
    await card.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
    assert.equal(await readBack(), 'de');
    await page.reload();
    await loaded(page);
    await card.locator('select[name=language] option', { hasText: 'German (de)' }).waitFor({ state: 'attached' });
    assert.equal(await field.inputValue(), 'de');

    // A region the API kept (`pt-BR`, set elsewhere) is shown as it is.
    await services.tenants.putDomain({ ...(await services.tenants.getDomain('acme-docs'))!, language: 'pt-BR' });
    await page.reload();
    await loaded(page);
    await card.locator('select[name=language] option', { hasText: 'German (de)' }).waitFor({ state: 'attached' });
    assert.equal(await field.inputValue(), 'pt-BR');

    await field.selectOption('');
    await save();
    await card.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
    assert.equal(await readBack(), undefined);
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it('adds a domain with the settings its edit form has: language, support contact, push secret variable, hidden pages', async () => {
    const page = await signIn();
    const form = page.locator('form', { has: page.locator('#new-domain-heading') });
    await form.locator('select[name=language] option', { hasText: 'German (de)' }).waitFor({ state: 'attached' });
    await form.getByLabel('Id', { exact: true }).fill('acme-handbook');
    await form.getByLabel('Source').fill('/srv/acme-handbook');
    await form.getByLabel('Docs site URL').fill('https://handbook.acme.example');
    await form.getByLabel('Language').selectOption('de');
    await form.getByLabel('Support contact').fill('docs@acme.example');
    await form.getByLabel('Push secret variable').fill('ACME_DOCS_PUSH_SECRET');
    await form.getByLabel('Index hidden pages').check();
    await form.getByRole('button', { name: 'Add the domain' }).click();
    const card = page.locator('li.domain', { hasText: 'acme-handbook' });
    await card.locator('form[aria-label="Settings of acme-handbook"]').waitFor();

    const res = await fetch(`${url}/v2/admin/domains/acme-handbook`, { headers: { Authorization: `Bearer ${acme.adminKey}` } });
    assert.equal(res.status, 200);
    const { language, supportContact, pushSecretEnv, includeHidden, pollMinutes, allowedOrigins } = (await res.json()) as Record<string, unknown>;
    assert.deepEqual({ language, supportContact, pushSecretEnv, includeHidden, pollMinutes, allowedOrigins }, {
      language: 'de',
      supportContact: 'docs@acme.example',
      pushSecretEnv: 'ACME_DOCS_PUSH_SECRET',
      includeHidden: true,
      pollMinutes: undefined,
      allowedOrigins: undefined,
    });
    // Its card shows what was set, in the same fields; the form to add one is empty again.
    assert.equal(await card.locator('select[name=language]').inputValue(), 'de');
    assert.equal(await card.locator('input[name=supportContact]').inputValue(), 'docs@acme.example');
    assert.equal(await card.locator('input[name=includeHidden]').isChecked(), true);
    assert.equal(await form.getByLabel('Id', { exact: true }).inputValue(), '');
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it("edits a domain's source and hidden pages, keeping the credentials its URL shows as ***", async () => {
    const stored = 'https://x-access-token:s3cret@git.acme.example/acme/private-docs.git';
    await services.tenants.putDomain({ id: 'acme-private', orgId: 'acme', source: stored, docsPath: '', baseUrl: 'https://private.acme.example', includeHidden: false });
    const page = await signIn();
    const card = page.locator('li.domain', { hasText: 'acme-private' });
    const save = async () => {
      await card.locator('button', { hasText: 'Save' }).click();
      await card.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
    };
    const source = card.getByLabel('Source');
    assert.equal(await source.inputValue(), 'https://***@git.acme.example/acme/private-docs.git', 'the token is never shown');

    // Saved as shown, with hidden pages ticked: the stored token stays.
    await card.getByLabel('Index hidden pages').check();
    await save();
    let domain = await services.tenants.getDomain('acme-private');
    assert.deepEqual([domain?.source, domain?.includeHidden], [stored, true]);

    // Another repository, hidden pages unticked.
    await source.fill('https://***@git.acme.example/acme/moved-docs.git');
    await card.getByLabel('Index hidden pages').uncheck();
    await save();
    domain = await services.tenants.getDomain('acme-private');
    assert.deepEqual([domain?.source, domain?.includeHidden], ['https://x-access-token:s3cret@git.acme.example/acme/moved-docs.git', false]);
    assert.deepEqual(tab.errors.filter((e) => !EXPECTED_REFUSALS.test(e)), []);
  });

  it('shows projects, automations and webhooks without serious accessibility violations, on a phone and a desktop', async () => {
    // A delivery with a long receiver URL and error: on a phone its table stacks each row, so no word is cut letter by letter.
    // A delivery is logged while its webhook exists; the webhook is removed at the end (its log stays) for the tests after.
    const { hook: layoutHook } = newWebhook('handbook', 'https://hooks.acme.example/quire/deliveries/receiver', []);
    await services.webhooks.put(layoutHook);
    await services.webhooks.recordDelivery({
      deliveryId: `dlv_${randomUUID()}`,
      projectId: 'handbook',
      webhookId: layoutHook.id,
      url: layoutHook.url,
      event: 'job.completed',
      jobId: 'job_layout',
      seq: 1,
      status: 'abandoned',
      statusCode: 502,
      attempts: 8,
      lastError: 'the receiver answered 502 Bad Gateway',
      updatedAt: new Date().toISOString(),
    });
    for (const width of [375, 1440]) {
      const page = await signIn(width);
      for (const section of ['Domains', 'Keys', 'Projects', 'Automations', 'Webhooks']) {
        await openSection(page, section);
        await loaded(page);
        await screenshot(page, 'console', `settings-${section.toLowerCase()}-${width}`);
        assert.deepEqual(await seriousViolations(page), [], `${section} at ${width}px`);
      }
      const receiver = page.locator('table.deliveries td[data-label=Receiver]').first();
      await receiver.waitFor();
      // Stacked on a phone (a line of its own, the full width), a column beside the others on a desktop.
      const { width: receiverWidth } = (await receiver.boundingBox()) ?? { width: 0 };
      if (width === 375) assert.ok(receiverWidth > 300, `the receiver takes the phone's width: ${receiverWidth} px`);
      else assert.ok(receiverWidth < width / 2, `the receiver is one column of several: ${receiverWidth} px`);
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      assert.ok(Number(overflow) <= 0, `no sideways scrolling at ${width}px (${String(overflow)})`);
      await tab.close();
    }
    await services.webhooks.remove('handbook', layoutHook.id);
  });

  it('registers a webhook with its secret shown once, and removes it', async () => {
    const page = await signIn();
    await openSection(page, 'Webhooks');
    await page.locator('text=No webhook in handbook.').waitFor();
    await page.fill('#new-webhook-url', 'ftp://hooks.acme.example');
    await page.click('text=Add the webhook');
    await page.locator('#new-webhook-url-error').waitFor();
    assert.match((await page.locator('#new-webhook-url-error').textContent()) ?? '', /http\(s\) URL/);

    await page.fill('#new-webhook-url', 'https://hooks.acme.example/quire');
    await page.fill('#new-webhook-events', 'job.completed');
    await page.click('text=Add the webhook');
    const secret = (await page.locator('#webhook-secret').textContent()) ?? '';
    await page.locator('#webhook-secret-heading:focus').waitFor({ timeout: 5_000 });
    const [hook] = await services.webhooks.list('handbook');
    assert.deepEqual(hook?.secret, { kind: 'stored', value: secret });
    assert.deepEqual(hook.events, ['job.completed']);
    await screenshot(page, 'console', 'settings-webhooks-created');
    assert.deepEqual(await seriousViolations(page), []);

    // Removing asks first, naming the webhook, with the focus on that question; Keep it steps back.
    const remove = page.getByRole('button', { name: 'Remove the webhook to https://hooks.acme.example/quire', exact: true });
    const confirm = page.getByRole('button', { name: 'Remove the webhook to https://hooks.acme.example/quire now' });
    await remove.click();
    await page.locator('button.danger:focus', { hasText: 'now' }).waitFor({ timeout: 5_000 });
    await screenshot(page, 'console', 'settings-webhooks-confirm-remove');
    assert.equal((await services.webhooks.list('handbook')).length, 1, 'nothing removed at the first press');
    await page.getByRole('button', { name: 'Keep it' }).click();
    await remove.click();
    await confirm.click();
    await page.locator('text=No webhook in handbook.').waitFor();
    assert.deepEqual(await services.webhooks.list('handbook'), []);
  });

  it('adds an automation, and deletes it only when asked a second time', async () => {
    const page = await signIn();
    await openSection(page, 'Automations');
    await page.locator('text=No automation in handbook.').waitFor();
    const prompt = 'Check the links of every page and fix the broken ones';
    await page.fill('#new-automation-prompt', prompt);
    await page.fill('#new-automation-interval', '1d');
    await page.click('text=Add the automation');
    const card = page.locator('li.card', { hasText: prompt });
    await card.waitFor();
    const listed = async () => {
      const res = await fetch(`${url}/v2/agent/handbook/automations`, { headers: { authorization: `Bearer ${acme.adminKey}` } });
      return ((await res.json()) as { automations: unknown[] }).automations.length;
    };
    assert.equal(await listed(), 1);

    await card.getByRole('button', { name: 'Delete the automation Check the links of every page and fix…', exact: true }).click();
    const confirm = card.getByRole('button', { name: 'Delete the automation “Check the links of every page and fix…” now' });
    await card.locator('button.danger:focus').waitFor({ timeout: 5_000 });
    assert.equal(await listed(), 1, 'nothing deleted at the first press');
    assert.deepEqual(await seriousViolations(page), []);
    await confirm.click();
    await page.locator('text=No automation in handbook.').waitFor();
    assert.equal(await listed(), 0);
  });

  it('edits a project, refusing a bad value beside its field', async () => {
    const page = await signIn();
    await openSection(page, 'Projects');
    const card = page.locator('li.card', { hasText: 'handbook' });
    await card.locator('input[name=branch]').fill('');
    await card.locator('button', { hasText: 'Save' }).click();
    const error = card.locator('#project-handbook-branch-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /must not be empty/);
    await card.locator('input[name=branch]').fill('release');
    await card.locator('button', { hasText: 'Save' }).click();
    await card.locator('text=Saved.').waitFor();
    const project = await services.tenants.getProject('handbook');
    assert.equal(project?.branch, 'release');
    assert.equal(project?.forge, 'local', 'other fields are kept');
  });

  it('adds a GitHub project with its token variable and allowed models', async () => {
    const page = await signIn();
    await openSection(page, 'Projects');
    const form = page.locator('form', { has: page.locator('#new-project-heading') });
    await form.getByLabel('Id', { exact: true }).fill('on-github');
    await form.getByLabel('Repository').fill('https://github.com/acme/docs.git');
    await form.getByLabel('Forge', { exact: true }).selectOption('github');
    await form.getByLabel('Forge token variable').fill('ACME_GITHUB_TOKEN');
    await form.getByLabel('Allowed models').fill('model-a\nmodel-b');
    await form.getByRole('button', { name: 'Add the project' }).click();
    await page.locator('li.card', { hasText: 'on-github' }).waitFor();
    const project = await services.tenants.getProject('on-github');
    assert.deepEqual([project?.forge, project?.forgeTokenEnv, project?.allowedModels], ['github', 'ACME_GITHUB_TOKEN', ['model-a', 'model-b']]);
  });

  it('adds a domain, and the top bar offers it once the reader leaves Settings', async () => {
    const page = await signIn();
    await page.locator('#new-domain-id').fill('second-docs');
    await page.locator('#new-domain-source').fill('/srv/second-docs');
    await page.locator('#new-domain-base-url').fill('https://second.example.com');
    await page.locator('form', { has: page.locator('#new-domain-id') }).locator('button[type=submit]').click();
    await page.locator('form[aria-label="Settings of second-docs"]').waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.locator('header .domain-picker option', { hasText: 'second-docs' }).waitFor({ state: 'attached', timeout: 5_000 });
  });
});
