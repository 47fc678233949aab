/**
 * Every error status API.md gives the agent endpoints, over real HTTP against
 * the real API and the Temporal dev server. No worker polls this task queue:
 * creating, reading, listing and the limits need none.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { call } from './agent-api.js';

describe('agent API errors', function () {
  this.timeout(120_000);
  let base: string;
  let admin: string;
  let assistant: string;
  let otherAdmin: string;
  let limitedAdmin: string;
  let services: Awaited<ReturnType<typeof testServices>>;

  before(async () => {
    services = await testServices({ taskQueue: `no-worker-${randomUUID()}`, env: { QUIRE_MODEL: 'gpt-default' } });
    ({ adminKey: admin, assistantKey: assistant } = await seedOrg(services, 'acme'));
    ({ adminKey: otherAdmin } = await seedOrg(services, 'globex'));
    await services.tenants.addOrg('limited', { agentCreatesPerHour: 2, agentMessagesPerHour: 1 });
    limitedAdmin = (await services.tenants.createKey('limited', 'admin')).secret;
    const project = { branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] };
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: 'https://user:s3cret@git.example.com/docs.git', ...project });
    await services.tenants.putProject({ id: 'picky', orgId: 'acme', repository: '/srv/docs.git', ...project, allowedModels: ['m-a', 'm-b'] });
    await services.tenants.putProject({ id: 'rival', orgId: 'globex', repository: '/srv/rival.git', ...project });
    await services.tenants.putProject({ id: 'small', orgId: 'limited', repository: '/srv/small.git', ...project });
    await services.tenants.putProject({ id: 'busy', orgId: 'acme', repository: '/srv/busy.git', ...project });
    await services.tenants.putProject({ id: 'fresh', orgId: 'acme', repository: '/srv/fresh.git', ...project });
    await services.tenants.putProject({ id: 'keyed', orgId: 'acme', repository: '/srv/keyed.git', ...project });
    base = (await serve(createApp(services))).url;
  });

  const url = (path: string) => `${base}/v2/agent${path}`;
  const create = (project: string, key: string | null, body: unknown = { prompt: 'Fix the typo' }) =>
    call<JobView & { code?: string }>(url(`/${project}/job`), 'POST', key, body);

  it('creates a job: 201 active, credentials stripped from the source, RateLimit headers', async () => {
    const reply = await create('docs', admin);
    assert.equal(reply.status, 201);
    assert.equal(reply.body.status, 'active');
    assert.match(reply.body.id, /^job_/);
    assert.deepEqual(reply.body.source, { repository: 'https://git.example.com/docs.git', ref: 'main' });
    assert.equal(reply.body.model, 'gpt-default');
    assert.equal(reply.body.prLink, null);
    assert.equal(reply.body.archivedAt, null);
    assert.equal(reply.headers.get('ratelimit-limit'), '100');
    assert.equal(reply.headers.get('ratelimit-remaining'), '99');
    // Create wrote the first record to the database: GET answers from it although no worker runs.
    const got = await call<JobView>(url(`/docs/job/${reply.body.id}`), 'GET', admin);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, reply.body);
  });

  it('401 without a key or with an unknown one, on every endpoint', async () => {
    const paths: Array<[string, string]> = [
      ['POST', '/docs/job'],
      ['GET', '/docs/job/job_aaaaaaaaaaaaaaaaaaaa'],
      ['POST', '/docs/job/job_aaaaaaaaaaaaaaaaaaaa/message'],
      ['POST', '/docs/job/job_aaaaaaaaaaaaaaaaaaaa/archive'],
      ['GET', '/docs/jobs'],
    ];
    for (const [method, path] of paths) {
      for (const key of [null, 'quire_notarealkey0000000000000000000000000000']) {
        const reply = await call(url(path), method, key, method === 'POST' ? { prompt: 'x' } : undefined);
        assert.equal(reply.status, 401, `${method} ${path}`);
        assert.equal(reply.body.code, 'unauthorized');
        assert.equal(reply.headers.get('www-authenticate'), 'Bearer');
      }
      const wrongKind = await call(url(path), method, assistant, method === 'POST' ? { prompt: 'x' } : undefined);
      assert.equal(wrongKind.status, 403, `${method} ${path} with an assistant key`);
      assert.equal(wrongKind.body.code, 'forbidden');
    }
  });

  it('404 for an unknown project, a project of another organisation, an unknown or foreign job', async () => {
    for (const project of ['nope', 'rival']) {
      const reply = await create(project, admin);
      assert.equal(reply.status, 404, project);
      assert.equal(reply.body.code, 'not_found');
      assert.equal((await call(url(`/${project}/jobs`), 'GET', admin)).status, 404);
    }
    const job = (await create('docs', admin)).body;
    for (const [project, id, key] of [
      ['docs', 'job_zzzzzzzzzzzzzzzzzzzz', admin],
      ['docs', '..%2F..%2Fetc', admin],
      ['busy', job.id, admin],
      ['rival', job.id, otherAdmin],
    ] as const) {
      assert.equal((await call(url(`/${project}/job/${id}`), 'GET', key)).status, 404, `${project}/${id}`);
      assert.equal((await call(url(`/${project}/job/${id}/message`), 'POST', key, { prompt: 'x' })).status, 404);
      assert.equal((await call(url(`/${project}/job/${id}/archive`), 'POST', key)).status, 404);
    }
  });

  it('400 names each broken field of a body or query', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'prompt'],
      [{ prompt: '' }, 'prompt'],
      [{ prompt: 42 }, 'prompt'],
      // Zero-width spaces and a direction mark: nothing to act on.
      [{ prompt: '\u200b\u200b\u200e' }, 'prompt'],
      [{ prompt: 'x', asDraft: 'yes' }, 'asDraft'],
      [{ prompt: 'x', model: 'not-allowed' }, 'model'],
      // A misspelt field is refused, not ignored: `draft` would have opened a pull request that is not a draft.
      [{ prompt: 'x', draft: true }, 'draft'],
    ];
    for (const [body, field] of cases) {
      const reply = await call<{ code: string; details: Array<{ path: string }> }>(url('/docs/job'), 'POST', admin, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body.code, 'invalid_request');
      assert.ok(reply.body.details.some((d) => d.path === field), JSON.stringify(reply.body));
    }
    assert.equal((await create('picky', admin, { prompt: 'x', model: 'gpt-default' })).status, 400);
    const picked = await create('picky', admin, { prompt: 'x', model: 'm-b' });
    assert.equal(picked.status, 201);
    assert.equal(picked.body.model, 'm-b');
    const job = (await create('docs', admin)).body;
    assert.equal((await call(url(`/docs/job/${job.id}/message`), 'POST', admin, { prompt: '' })).status, 400);
    const extra = await call<{ details: Array<{ path: string }> }>(url(`/docs/job/${job.id}/message`), 'POST', admin, { prompt: 'More', asDraft: true });
    assert.equal(extra.status, 400);
    assert.ok(extra.body.details.some((d) => d.path === 'asDraft'), JSON.stringify(extra.body));
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'status=done', 'cursor=bogus']) {
      const reply = await call(url(`/docs/jobs?${query}`), 'GET', admin);
      assert.equal(reply.status, 400, query);
      assert.equal(reply.body.code, 'invalid_request');
    }
  });

  it('503 for a follow-up no worker takes in time, saying it may still run and to retry with the same Idempotency-Key', async function () {
    // The update waits UPDATE_DEADLINE_MS (15 s) for a worker; this queue has none.
    this.timeout(60_000);
    const job = (await create('docs', admin)).body;
    const reply = await call<{ code: string; error: string }>(url(`/docs/job/${job.id}/message`), 'POST', admin, { prompt: 'Also fix the title' }, { 'Idempotency-Key': 'follow-up-1' });
    assert.equal(reply.status, 503, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'unavailable');
    assert.match(reply.body.error, /Temporal keeps it and it may still run when a worker comes: retry with the same Idempotency-Key header so it runs once/);
    assert.ok(Number(reply.headers.get('retry-after')) >= 1);
    // The key names that message: sent with another prompt it is refused at once, not taken as the first.
    const reused = await call<{ code: string }>(url(`/docs/job/${job.id}/message`), 'POST', admin, { prompt: 'Something else entirely' }, { 'Idempotency-Key': 'follow-up-1' });
    assert.equal(reused.status, 422);
    assert.equal(reused.body.code, 'idempotency_key_reused');
  });

  it('an Idempotency-Key makes retried creates one job, concurrent ones too; the key with another prompt is 422', async () => {
    const jobsOf = async () => (await call<{ jobs: JobView[] }>(url('/keyed/jobs?limit=100'), 'GET', admin)).body.jobs.map((j) => j.id);
    const key = { 'Idempotency-Key': `create-${randomUUID()}` };
    const body = { prompt: 'Write a page about keys' };
    const first = await call<JobView>(url('/keyed/job'), 'POST', admin, body, key);
    assert.equal(first.status, 201);
    const again = await call<JobView>(url('/keyed/job'), 'POST', admin, body, key);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body, 'the job the key made');
    assert.equal(again.headers.get('ratelimit-remaining'), null, 'a repeat spends no limit');
    const other = await call<{ code: string }>(url('/keyed/job'), 'POST', admin, { prompt: 'Something else' }, key);
    assert.equal(other.status, 422);
    assert.equal(other.body.code, 'idempotency_key_reused');

    const racing = { 'Idempotency-Key': `create-${randomUUID()}` };
    const [a, b] = await Promise.all([call<JobView>(url('/keyed/job'), 'POST', admin, body, racing), call<JobView>(url('/keyed/job'), 'POST', admin, body, racing)]);
    assert.deepEqual([a.status, b.status], [201, 201]);
    assert.equal(a.body.id, b.body.id);
    assert.deepEqual((await jobsOf()).sort(), [first.body.id, a.body.id].sort());
    // Without a key, each create is a job of its own.
    const [c, d] = await Promise.all([call<JobView>(url('/keyed/job'), 'POST', admin, body), call<JobView>(url('/keyed/job'), 'POST', admin, body)]);
    assert.notEqual(c.body.id, d.body.id);
  });

  it('415 for a body that is not JSON', async () => {
    const reply = await call(url('/docs/job'), 'POST', admin, 'prompt=x', { 'content-type': 'text/plain' });
    assert.equal(reply.status, 415);
  });

  it('409 for a message to an archived job; archive is idempotent', async () => {
    // No worker runs here: the job is recorded archived as its workflow records it.
    const job = (await create('docs', admin)).body;
    await services.temporal.workflow.getHandle(job.id).terminate('test: no worker will run it');
    const stored = await services.jobs.get('docs', job.id);
    const at = new Date().toISOString();
    await services.jobs.put({ ...stored!, status: 'archived', archivedAt: at, updatedAt: at, revision: stored!.revision + 1 });
    const first = await call<JobView>(url(`/docs/job/${job.id}/archive`), 'POST', admin);
    assert.equal(first.status, 200);
    assert.equal(first.body.status, 'archived');
    assert.equal(first.body.archivedAt, at);
    const again = await call<JobView>(url(`/docs/job/${job.id}/archive`), 'POST', admin);
    assert.equal(again.status, 200);
    assert.equal(again.body.archivedAt, first.body.archivedAt);
    const message = await call(url(`/docs/job/${job.id}/message`), 'POST', admin, { prompt: 'more' });
    assert.equal(message.status, 409);
    assert.equal(message.body.code, 'conflict');
  });

  it('429 once the organisation limit is spent, with Retry-After and RateLimit headers; a refused create starts nothing', async () => {
    assert.equal((await create('small', limitedAdmin)).status, 201);
    const second = await create('small', limitedAdmin);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('ratelimit-remaining'), '0');
    const refused = await create('small', limitedAdmin);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('ratelimit-limit'), '2');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    const listed = await call<{ jobs: JobView[] }>(url('/small/jobs?limit=100'), 'GET', limitedAdmin);
    assert.equal(listed.body.jobs.length, 2);
  });

  it('a job is listed as soon as its create has answered', async function () {
    for (let i = 0; i < 20; i++) {
      const created = await create('fresh', admin, { prompt: `listed ${i}` });
      assert.equal(created.status, 201);
      const listed = await call<{ jobs: JobView[] }>(url('/fresh/jobs?limit=1'), 'GET', admin);
      assert.equal(listed.body.jobs[0]?.id, created.body.id, `create #${i + 1} is listed first`);
    }
  });

  it('the 101st create in an hour is refused with the default limit of 100', async function () {
    this.timeout(180_000);
    for (let i = 0; i < 100; i++) {
      const reply = await create('busy', admin, { prompt: `job ${i}` });
      assert.equal(reply.status, 201, `create #${i + 1}`);
    }
    const refused = await create('busy', admin, { prompt: 'one too many' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('ratelimit-limit'), '100');
    // Newest first, paged with the cursor.
    const page1 = await call<{ jobs: JobView[]; nextCursor: string | null }>(url('/busy/jobs?limit=60'), 'GET', admin);
    assert.equal(page1.body.jobs.length, 60);
    assert.ok(page1.body.nextCursor);
    const page2 = await call<{ jobs: JobView[]; nextCursor: string | null }>(
      url(`/busy/jobs?limit=60&cursor=${page1.body.nextCursor}`),
      'GET',
      admin,
    );
    assert.equal(page2.body.jobs.length, 40);
    assert.equal(page2.body.nextCursor, null);
    const ids = [...page1.body.jobs, ...page2.body.jobs].map((j) => j.id);
    assert.equal(new Set(ids).size, 100);
    const created = [...page1.body.jobs, ...page2.body.jobs].map((j) => j.createdAt);
    assert.deepEqual(created, [...created].sort().reverse());
    const active = await call<{ jobs: JobView[] }>(url('/busy/jobs?status=active&limit=5'), 'GET', admin);
    assert.equal(active.body.jobs.length, 5);
    const failed = await call<{ jobs: JobView[] }>(url('/busy/jobs?status=failed'), 'GET', admin);
    assert.equal(failed.body.jobs.length, 0);
  });
});
