import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import { FEATURES } from '../../../api/features.js';
import { pushHookRouter, WarningThrottle } from '../../../api/hooks/index.js';
import type { ApiServices } from '../../../api/services.js';
import { indexWorkflowId, type IndexDomainResult } from '../../../core/contracts/index.js';
import { createLogger } from '../../../core/logger.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { seedOrg, serve, testServices, type SeededOrg } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { exampleDocsRepo, type GitDocs } from './git-docs.js';

const SECRET = `push-secret-${randomUUID()}`;
const HOOK = '/v2/hooks/domains/{domainId}/push';

/** GitHub's signature of a body: `sha256=` and the hex HMAC-SHA256, keyed with the secret. */
const hubSignature = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A push event as GitHub sends it (the fields Quire reads, and some it does not). */
const githubPush = (ref: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ref, before: '1'.repeat(40), after: '2'.repeat(40), deleted: false, repository: { full_name: 'acme/docs', default_branch: 'main' }, pusher: { name: 'docs' }, commits: [], ...extra });

/**
 * A docs team points its forge's push webhook at the domain's hook: a push to the domain's branch
 * re-indexes it from the real git repository (through the real worker and Temporal), and nothing
 * else does: a wrong signature, another branch, another event.
 */
describe('the push hook of a domain', function () {
  this.timeout(120_000);
  let services: ApiServices;
  let url = '';
  let acme: SeededOrg;
  let repo: GitDocs;
  const logs: string[] = [];
  const admin = bearerCaller(() => url);

  before(async () => {
    const taskQueue = `push-hook-${randomUUID()}`;
    // The log keeps every line as written (no scrubbing of known secrets), so a secret that reached it would show.
    const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (logs.push(chunk.toString()), done()) }));
    services = await testServices({ taskQueue, env: { QUIRE_ORG_SCOPED_VARIABLES: 'true', ACME_PUSH_SECRET: SECRET }, logger });
    acme = await seedOrg(services, 'acme');
    repo = await exampleDocsRepo();
    ({ url } = await serve(createApp(services)));
    await startWorker(services, { taskQueue });
  });

  /** A domain of acme over the repository, its push secret set through the admin API; ids are unique on the shared Temporal server. */
  async function domainWithHook(opts: { branch?: string | null; pushSecretEnv?: string | null } = {}): Promise<string> {
    const id = `push-${randomUUID().slice(0, 8)}`;
    await services.tenants.putDomain({ id, orgId: acme.orgId, source: repo.bareDir, ...(opts.branch === null ? {} : { branch: opts.branch ?? 'main' }), docsPath: '', baseUrl: 'https://docs.acme.test', includeHidden: false });
    if (opts.pushSecretEnv !== null) {
      const res = await admin('PATCH', `/v2/admin/domains/${id}`, acme.adminKey, { pushSecretEnv: opts.pushSecretEnv ?? 'ACME_PUSH_SECRET' });
      assert.equal(res.status, 200);
      assert.doesNotMatch(await res.text(), new RegExp(SECRET), 'the domain shows the variable, never its value');
    }
    return id;
  }

  const push = (domainId: string, body: string, headers: Record<string, string>) =>
    fetch(`${url}/v2/hooks/domains/${domainId}/push`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

  const githubHeaders = (body: string, event = 'push', secret = SECRET) => ({ 'X-GitHub-Event': event, 'X-GitHub-Delivery': randomUUID(), 'X-Hub-Signature-256': hubSignature(body, secret) });

  /** The answer of an accepted push: the run it started or joined, which the test waits for. */
  async function indexed(res: Response, domainId: string): Promise<IndexDomainResult> {
    assert.equal(res.status, 202);
    await conforms(HOOK, 'post', res.clone());
    const answer = (await res.json()) as { outcome: string; runId: string; branch: string };
    assert.equal(answer.outcome, 'indexing');
    assert.equal(answer.branch, 'main');
    const { client } = await temporalEnv();
    return client.workflow.getHandle<() => Promise<IndexDomainResult>>(indexWorkflowId(domainId), answer.runId).result();
  }

  async function neverIndexed(domainId: string): Promise<void> {
    const { client } = await temporalEnv();
    await assert.rejects(client.workflow.getHandle(indexWorkflowId(domainId)).describe(), WorkflowNotFoundError);
    await expectError(await admin('GET', `/v2/admin/domains/${domainId}/index`, acme.adminKey), 404, 'not_found');
  }

  const search = async (domainId: string, query: string) => (await services.docIndex.search(domainId, { query, pageSize: 5 })).map((hit) => hit.content).join('\n');

  it('re-indexes the domain on a signed GitHub push to its branch: a page changed in the repository is found afterwards', async () => {
    const domainId = await domainWithHook();
    const first = await indexed(await push(domainId, githubPush('refs/heads/main'), githubHeaders(githubPush('refs/heads/main'))), domainId);
    assert.ok(first.pages > 0);
    assert.doesNotMatch(await search(domainId, 'dirigible'), /dirigible/);

    await repo.commit({ 'api-reference/rate-limits.mdx': '---\ntitle: Rate limits\n---\n\n## Beyond the limit\n\nRequests beyond the limit wait for the dirigible.\n' }, 'rate limits by dirigible');
    const body = githubPush('refs/heads/main', { after: '3'.repeat(40) });
    const second = await indexed(await push(domainId, body, githubHeaders(body)), domainId);
    assert.equal(second.updated, 1, 'the changed page is indexed again');
    assert.match(await search(domainId, 'dirigible'), /dirigible/, 'search finds the pushed page');
  });

  it('refuses a wrong or missing signature with 401 invalid_signature and indexes nothing', async () => {
    const domainId = await domainWithHook();
    const body = githubPush('refs/heads/main');
    await expectError(await push(domainId, body, githubHeaders(body, 'push', 'not-the-secret')), 401, 'invalid_signature');
    // Signed, but over another body: the signature covers the bytes as sent.
    await expectError(await push(domainId, body, githubHeaders(githubPush('refs/heads/other'))), 401, 'invalid_signature');
    await expectError(await push(domainId, body, { 'X-GitHub-Event': 'push' }), 401, 'invalid_signature');
    await expectError(await push(domainId, body, { 'X-Hub-Signature-256': 'sha256=zz' }), 401, 'invalid_signature');
    await expectError(await push(domainId, body, {}), 401, 'invalid_signature');
    await expectError(await push(domainId, body, { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'not-the-secret' }), 401, 'invalid_signature');
    await expectError(await push(domainId, body, { Authorization: 'Bearer not-the-secret' }), 401, 'invalid_signature');
    const refused = await push(domainId, body, githubHeaders(body, 'push', 'not-the-secret'));
    await conforms(HOOK, 'post', refused.clone());
    assert.doesNotMatch(await refused.text(), new RegExp(SECRET));
    await neverIndexed(domainId);
  });

  it('ignores a push to another branch, a tag, a deleted branch and other events with 202 saying why', async () => {
    const domainId = await domainWithHook();
    const answerOf = async (body: string, headers: Record<string, string>) => {
      const res = await push(domainId, body, headers);
      assert.equal(res.status, 202);
      await conforms(HOOK, 'post', res.clone());
      const answer = (await res.json()) as { outcome: string; reason: string };
      assert.equal(answer.outcome, 'ignored');
      return answer.reason;
    };
    const other = githubPush('refs/heads/feature/draft');
    assert.match(await answerOf(other, githubHeaders(other)), /indexes the branch 'main'/);
    const tag = githubPush('refs/tags/v1.0.0');
    assert.match(await answerOf(tag, githubHeaders(tag)), /is not a branch/);
    const deleted = githubPush('refs/heads/main', { deleted: true, after: '0'.repeat(40) });
    assert.match(await answerOf(deleted, githubHeaders(deleted)), /deleted the branch/);
    const issue = JSON.stringify({ action: 'opened', issue: { number: 1 } });
    assert.match(await answerOf(issue, githubHeaders(issue, 'issues')), /'issues' is not a push/);
    await neverIndexed(domainId);
  });

  it("answers GitHub's ping once its signature holds", async () => {
    const domainId = await domainWithHook();
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1, hook: { type: 'Repository', events: ['push'] } });
    const res = await push(domainId, ping, githubHeaders(ping, 'ping'));
    assert.equal(res.status, 200);
    await conforms(HOOK, 'post', res.clone());
    assert.deepEqual(await res.json(), { outcome: 'pong', domainId });
    await expectError(await push(domainId, ping, githubHeaders(ping, 'ping', 'not-the-secret')), 401, 'invalid_signature');
    await neverIndexed(domainId);
  });

  it("re-indexes on GitLab's Push Hook with its token, and on a plain bearer push", async () => {
    const domainId = await domainWithHook();
    const gitlab = JSON.stringify({ object_kind: 'push', ref: 'refs/heads/main', after: '4'.repeat(40), project: { path_with_namespace: 'acme/docs', default_branch: 'main' }, commits: [] });
    const gitlabTag = JSON.stringify({ object_kind: 'tag_push', ref: 'refs/tags/v2', project: { default_branch: 'main' } });
    const ignored = await push(domainId, gitlabTag, { 'X-Gitlab-Event': 'Tag Push Hook', 'X-Gitlab-Token': SECRET });
    assert.equal(((await ignored.json()) as { outcome: string }).outcome, 'ignored');
    const result = await indexed(await push(domainId, gitlab, { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': SECRET }), domainId);
    assert.ok(result.pages > 0);
    const plain = JSON.stringify({ ref: 'main' });
    await indexed(await push(domainId, plain, { Authorization: `Bearer ${SECRET}` }), domainId);
  });

  it('indexes the default branch the push names for a domain that names none', async () => {
    const domainId = await domainWithHook({ branch: null });
    const other = githubPush('refs/heads/draft');
    assert.equal(((await (await push(domainId, other, githubHeaders(other))).json()) as { outcome: string }).outcome, 'ignored');
    const body = githubPush('refs/heads/main');
    await indexed(await push(domainId, body, githubHeaders(body)), domainId);
  });

  it('answers an unknown domain, one without a push secret and one whose variable is unset alike: 404', async () => {
    const body = githubPush('refs/heads/main');
    const withoutSecret = await domainWithHook({ pushSecretEnv: null });
    const unsetVariable = await domainWithHook({ pushSecretEnv: 'ACME_UNSET_PUSH_SECRET' });
    const answers = [];
    for (const domainId of ['no-such-domain', withoutSecret, unsetVariable, 'NOT_AN_ID']) {
      const res = await push(domainId, body, githubHeaders(body));
      assert.equal(res.status, 404, domainId);
      const { code, error } = (await res.json()) as { code: string; error: string };
      answers.push({ code, error: error.replace(domainId, 'ID') });
    }
    assert.deepEqual(new Set(answers.map((a) => JSON.stringify(a))).size, 1, 'the same answer for each');
    await neverIndexed(withoutSecret);
  });

  it("warns that a domain's variable is unset once an hour per domain, not once per delivery", async () => {
    // An app of its own, whose hook reads the test's clock: the hour passes without waiting for it.
    let now = 0;
    const throttle = new WarningThrottle({ intervalMs: 3_600_000, now: () => now });
    const features = FEATURES.map((f) => (f === pushHookRouter ? (s: ApiServices) => pushHookRouter(s, throttle) : f));
    const { url: hookUrl } = await serve(createApp(services, features));
    const first = await domainWithHook({ pushSecretEnv: 'ACME_UNSET_PUSH_SECRET' });
    const second = await domainWithHook({ pushSecretEnv: 'ACME_UNSET_PUSH_SECRET' });
    const warnings = (domainId: string) =>
      logs.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as { level: string; msg: string; domainId?: string; variable?: string }).filter((l) => l.domainId === domainId && /variable is not set/.test(l.msg));
    const deliver = async (domainId: string) => {
      const body = githubPush('refs/heads/main');
      const res = await fetch(`${hookUrl}/v2/hooks/domains/${domainId}/push`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...githubHeaders(body) }, body });
      assert.equal(res.status, 404);
    };

    for (let i = 0; i < 5; i++) await deliver(first);
    assert.equal(warnings(first).length, 1, 'five deliveries, one warning');
    assert.equal(warnings(first)[0]?.variable, 'ACME_UNSET_PUSH_SECRET', 'it names the variable');
    assert.equal(warnings(first)[0]?.level, 'warn');
    await deliver(second);
    assert.equal(warnings(second).length, 1, 'each domain is warned of on its own');

    now += 3_599_999;
    await deliver(first);
    assert.equal(warnings(first).length, 1, 'not again within the hour');
    now += 1;
    await deliver(first);
    await deliver(first);
    assert.equal(warnings(first).length, 2, 'once more after the hour');

    // Another unset variable is news at once, not an hour later.
    const renamed = await admin('PATCH', `/v2/admin/domains/${first}`, acme.adminKey, { pushSecretEnv: 'ACME_OTHER_PUSH_SECRET' });
    assert.equal(renamed.status, 200);
    await deliver(first);
    assert.deepEqual(warnings(first).map((w) => w.variable), ['ACME_UNSET_PUSH_SECRET', 'ACME_UNSET_PUSH_SECRET', 'ACME_OTHER_PUSH_SECRET']);
  });

  it('refuses broken JSON with 400 and a body over the limit with 413, never 500', async () => {
    const domainId = await domainWithHook();
    const broken = '{"ref": "refs/heads/main"';
    await expectError(await push(domainId, broken, githubHeaders(broken)), 400, 'invalid_request');
    const noRef = JSON.stringify({ zen: 'no ref' });
    await expectError(await push(domainId, noRef, githubHeaders(noRef)), 400, 'invalid_request', 'ref');
    const huge = githubPush('refs/heads/main', { padding: 'x'.repeat(services.config.bodyLimitBytes) });
    await expectError(await push(domainId, huge, githubHeaders(huge)), 413, 'payload_too_large');
    const form = `payload=${encodeURIComponent(githubPush('refs/heads/main'))}`;
    const res = await fetch(`${url}/v2/hooks/domains/${domainId}/push`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...githubHeaders(form) }, body: form });
    await expectError(res, 415, 'unsupported_media_type');
    await neverIndexed(domainId);
  });

  after(() => {
    assert.ok(logs.some((line) => line.includes('push hook')), 'the hook logs what it did');
    assert.ok(!logs.some((line) => line.includes(SECRET)), 'no log line holds the secret');
  });
});
