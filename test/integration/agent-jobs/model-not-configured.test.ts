/**
 * With no language model configured an agent job cannot work, so every route
 * that would create one refuses it at the door: 503 `model_not_configured`
 * with `Retry-After` and a message saying how to configure a model, and no job
 * is created nor any create allowance spent. Real API and Temporal (the
 * automation's schedule is a real Temporal Schedule, created paused).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { conforms } from '../../support/openapi-conforms.js';
import { call } from './agent-api.js';

describe('agent jobs without a configured model are refused at the door', function () {
  this.timeout(60_000);

  it('v2 and v1 create and an automation trigger answer 503 model_not_configured; nothing is created', async () => {
    const services = await testServices({ taskQueue: `nomodel-${randomUUID()}` });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;

    const automation = await call<{ id: string }>(`${base}/v2/agent/docs/automations`, 'POST', adminKey, { cron: '@daily', prompt: 'Check links', paused: true });
    assert.equal(automation.status, 201, 'an automation may be set up before a model is');

    const attempts: Array<[string, string, unknown]> = [
      ['/v2/agent/{projectId}/job', '/v2/agent/docs/job', { prompt: 'Fix typos' }],
      ['/v1/agent/{projectId}/job', '/v1/agent/docs/job', { messages: [{ role: 'user', content: 'Fix typos' }] }],
      ['/v1/agent/job/{projectId}', '/v1/agent/job/docs', { messages: [{ role: 'user', content: 'Fix typos' }] }],
      ['/v2/agent/{projectId}/automations/{automationId}/trigger', `/v2/agent/docs/automations/${automation.body.id}/trigger`, undefined],
    ];
    for (const [template, url, body] of attempts) {
      const res = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      assert.equal(res.status, 503, url);
      assert.ok(Number(res.headers.get('retry-after')) >= 1, `${url}: Retry-After`);
      assert.equal(res.headers.get('ratelimit-remaining'), null, `${url}: no create allowance spent`);
      const error = (await res.clone().json()) as { code: string; error: string };
      assert.equal(error.code, 'model_not_configured', url);
      for (const name of ['QUIRE_MODEL_BASE_URL', 'QUIRE_MODEL_API_KEY', 'QUIRE_MODEL']) assert.match(error.error, new RegExp(`\\b${name}\\b`));
      await conforms(template, 'post', res);
    }

    const listed = await call<{ jobs: JobView[] }>(`${base}/v2/agent/docs/jobs`, 'GET', adminKey);
    assert.deepEqual(listed.body.jobs, []);
  });

  it('a body that breaks a rule is still 400 first: the client learns its own mistake before the server’s', async () => {
    const services = await testServices({ withTemporal: false });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;
    const res = await call<{ code: string }>(`${base}/v2/agent/docs/job`, 'POST', adminKey, { prompt: '' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_request');
  });
});
