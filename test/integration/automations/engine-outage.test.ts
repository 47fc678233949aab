/** Automations when Temporal cannot be reached: the API's own client (its retry policy), a port nothing listens on. */
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import { call } from '../agent-jobs/agent-api.js';
import { freePort } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, testConfig } from '../../support/services.js';

describe('automations while Temporal is unreachable', function () {
  this.timeout(60_000);

  it('503 with Retry-After, and a create that could not make its schedule leaves nothing behind', async () => {
    const env = { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` };
    const services = await servicesOn(await testConfig(env));
    const { adminKey } = await seedOrg(services, 'acme');
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const base = (await serve(createApp(services))).url;
    const created = await call<{ code: string }>(`${base}/v2/agent/docs/automations`, 'POST', adminKey, { cron: '@daily', prompt: 'Tidy' });
    assert.equal(created.status, 503, JSON.stringify(created.body));
    assert.equal(created.body.code, 'unavailable');
    assert.ok(Number(created.headers.get('retry-after')) >= 1);
    assert.deepEqual(await services.automations.list('docs'), []);
    // Nothing stored: the list answers without asking Temporal.
    assert.equal((await call(`${base}/v2/agent/docs/automations`, 'GET', adminKey)).status, 200);
  });
});
