/**
 * Every error status of Mintlify's v1 agent endpoints, over real HTTP against the real API and the
 * Temporal dev server. No worker polls this task queue: the refusals need none.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { call } from './agent-api.js';

describe("Mintlify's v1 agent endpoints: refusals", function () {
  this.timeout(120_000);
  let base: string;
  let admin: string;
  let assistant: string;
  let otherAdmin: string;
  const url = (path: string) => `${base}/v1/agent${path}`;

  before(async () => {
    const services = await testServices({ taskQueue: `no-worker-${randomUUID()}`, env: { QUIRE_MODEL: 'test-model' } });
    ({ adminKey: admin, assistantKey: assistant } = await seedOrg(services, 'acme'));
    ({ adminKey: otherAdmin } = await seedOrg(services, 'globex'));
    const project = { repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] };
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'other', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'rival', orgId: 'globex', ...project });
    base = (await serve(createApp(services))).url;
  });

  it('401, 403 and 404 like v2', async () => {
    const paths: Array<[string, string]> = [
      ['POST', '/docs/job'],
      ['POST', '/job/docs'],
      ['GET', '/docs/job/job_aaaaaaaaaaaaaaaaaaaa'],
      ['GET', '/docs/jobs'],
    ];
    const body = { messages: [{ role: 'user', content: 'x' }] };
    for (const [method, path] of paths) {
      const payload = method === 'POST' ? body : undefined;
      const anonymous = await call(url(path), method, null, payload);
      assert.equal(anonymous.status, 401, `${method} ${path}`);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
      assert.equal((await call(url(path), method, 'quire_notarealkey0000000000000000000000000000', payload)).status, 401);
      const wrongKind = await call(url(path), method, assistant, payload);
      assert.equal(wrongKind.status, 403, `${method} ${path} with an assistant key`);
      assert.equal(wrongKind.body.code, 'forbidden');
    }
    for (const project of ['nope', 'rival']) {
      assert.equal((await call(url(`/${project}/job`), 'POST', admin, body)).status, 404);
      assert.equal((await call(url(`/job/${project}`), 'POST', admin, body)).status, 404);
      assert.equal((await call(url(`/${project}/jobs`), 'GET', admin)).status, 404);
    }
    // A job of another project: v2's create answers at once (no worker runs here).
    const listed = { sessionId: (await call<JobView>(`${base}/v2/agent/other/job`, 'POST', admin, { prompt: 'Fix page 1' })).body.id };
    for (const [project, id, key] of [
      ['docs', 'job_zzzzzzzzzzzzzzzzzzzz', admin],
      ['docs', 'not-a-job', admin],
      ['docs', listed.sessionId, admin],
      ['rival', listed.sessionId, otherAdmin],
    ] as const) {
      const reply = await call(url(`/${project}/job/${id}`), 'GET', key);
      assert.equal(reply.status, 404, `${project}/${id}`);
      assert.equal(reply.body.code, 'not_found');
    }
  });

  it('400 names each broken field, and creates nothing', async () => {
    const before = (await call<{ allSessions: unknown[] }>(url('/docs/jobs?take=100'), 'GET', admin)).body.allSessions.length;
    const user = { role: 'user', content: 'Fix page 1' };
    const cases: Array<[unknown, string]> = [
      [{}, 'messages'],
      [{ messages: 'Fix page 1' }, 'messages'],
      [{ messages: [] }, 'messages'],
      [{ messages: [{ role: 'tool', content: 'x' }] }, 'messages.0.role'],
      [{ messages: [{ role: 'user' }] }, 'messages.0.content'],
      [{ messages: [{ role: 'user', content: 'x'.repeat(100_001) }] }, 'messages.0.content'],
      [{ messages: Array.from({ length: 101 }, () => user) }, 'messages'],
      [{ messages: [user, { role: 'assistant', content: 'Done.' }] }, 'messages'],
      [{ messages: [{ role: 'system', content: 'Be brief.' }] }, 'messages'],
      [{ messages: [{ role: 'user', content: '  \n ' }] }, 'messages'],
      [{ messages: [user], branch: '' }, 'branch'],
      [{ messages: [user], branch: 42 }, 'branch'],
      [{ messages: [user], branch: '../escape' }, 'branch'],
      [{ messages: [user], branch: '-f' }, 'branch'],
      [{ messages: [user], branch: 'a..b' }, 'branch'],
      [{ messages: [user], branch: 'has space' }, 'branch'],
      [{ messages: [user], branch: 'x.lock' }, 'branch'],
      [{ messages: [user], branch: 'main' }, 'branch'],
      [{ messages: [user], asDraft: 'yes' }, 'asDraft'],
      [{ messages: [user], model: 'not-allowed' }, 'model'],
      [{ messages: [user], model: '' }, 'model'],
    ];
    for (const [body, field] of cases) {
      for (const path of ['/docs/job', '/job/docs']) {
        const reply = await call<{ code: string; details: Array<{ path: string }> }>(url(path), 'POST', admin, body);
        assert.equal(reply.status, 400, `${path} ${JSON.stringify(body).slice(0, 200)}`);
        assert.equal(reply.body.code, 'invalid_request');
        assert.ok(reply.body.details.some((d) => d.path === field), `${field}: ${JSON.stringify(reply.body).slice(0, 300)}`);
      }
    }
    for (const [query, field] of [
      ['skip=-1', 'skip'],
      ['skip=1001', 'skip'],
      ['skip=abc', 'skip'],
      ['take=0', 'take'],
      ['take=101', 'take'],
      ['take=2.5', 'take'],
      ['take=1&take=2', 'take'],
    ]) {
      const reply = await call<{ code: string; details: Array<{ path: string }> }>(url(`/docs/jobs?${query}`), 'GET', admin);
      assert.equal(reply.status, 400, query);
      assert.ok(reply.body.details.some((d) => d.path === field), JSON.stringify(reply.body));
    }
    assert.equal((await call(url('/docs/job'), 'POST', admin, 'messages', { 'content-type': 'text/plain' })).status, 415);
    const after = (await call<{ allSessions: unknown[] }>(url('/docs/jobs?take=100'), 'GET', admin)).body.allSessions.length;
    assert.equal(after, before);
  });
});
