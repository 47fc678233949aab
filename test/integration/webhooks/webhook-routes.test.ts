import assert from 'node:assert/strict';
import type { ApiServices } from '../../../api/services.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { twoOrgApi, type SeededOrg } from '../../support/services.js';

describe('webhook routes', function () {
  this.timeout(60_000);
  let url = '';
  let services: ApiServices;
  let acme: SeededOrg;
  let globex: SeededOrg;

  before(async () => {
    ({ services, url, acme, globex } = await twoOrgApi({ withTemporal: false }));
    for (const [id, orgId] of [['handbook', 'acme'], ['theirs', 'globex']] as const) {
      await services.tenants.putProject({ id, orgId, repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    }
  });

  const call = bearerCaller(() => url);

  it('registers a receiver with a secret shown once, lists it without the secret, and removes it', async () => {
    let res = await call('GET', '/v2/agent/handbook/webhooks', acme.adminKey);
    await conforms('/v2/agent/{projectId}/webhooks', 'get', res.clone());
    assert.deepEqual(await res.json(), { webhooks: [] });

    res = await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://hooks.acme.test/quire', events: ['job.completed'] });
    assert.equal(res.status, 201);
    await conforms('/v2/agent/{projectId}/webhooks', 'post', res.clone());
    const created = (await res.json()) as { id: string; signingSecret: string; secret: string; events: string[] };
    assert.match(created.signingSecret, /^whsec_/);
    assert.equal(created.secret, 'stored');
    const stored = await services.webhooks.get('handbook', created.id);
    assert.deepEqual(stored?.secret, { kind: 'stored', value: created.signingSecret }, 'the secret shown is the one deliveries are signed with');

    // The same URL again updates the webhook: one id, the new settings.
    res = await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://hooks.acme.test/quire', secretEnv: 'ACME_HOOK_SECRET' });
    const again = (await res.json()) as { id: string; signingSecret: string | null; secret: string; events: string[] };
    assert.equal(again.id, created.id);
    assert.equal(again.signingSecret, null);
    assert.equal(again.secret, 'env:ACME_HOOK_SECRET');
    assert.deepEqual(again.events, []);

    const text = await (await call('GET', '/v2/agent/handbook/webhooks', acme.adminKey)).text();
    assert.ok(!text.includes(created.signingSecret), 'a listing never shows a secret');
    assert.deepEqual((JSON.parse(text) as { webhooks: Array<{ id: string }> }).webhooks.map((w) => w.id), [created.id]);

    res = await call('DELETE', `/v2/agent/handbook/webhooks/${created.id}`, acme.adminKey);
    assert.equal(res.status, 204);
    await expectError(await call('DELETE', `/v2/agent/handbook/webhooks/${created.id}`, acme.adminKey), 404, 'not_found');
    assert.equal(await services.webhooks.get('handbook', created.id), undefined);
  });

  it('names the bad field, refuses assistant keys, and hides other organisations’ projects', async () => {
    await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'ftp://x' }), 400, 'invalid_request', 'url');
    await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://h.test', events: ['job.nope'] }), 400, 'invalid_request', 'events.0');
    await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://h.test', secretEnv: 'lower' }), 400, 'invalid_request', 'secretEnv');
    // Signing with one of Quire's own settings would hand an HMAC of it to the receiver.
    await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://h.test', secretEnv: 'QUIRE_DATABASE_URL' }), 400, 'invalid_request', 'secretEnv');
    // A password in the URL would reach the delivery log and workflow history when a delivery fails.
    await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://user:pw@h.test/hook' }), 400, 'invalid_request', 'url');
    await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, {}), 400, 'invalid_request', 'url');
    await expectError(await call('GET', '/v2/agent/handbook/webhooks', acme.assistantKey), 403, 'forbidden');
    await expectError(await call('GET', '/v2/agent/theirs/webhooks', acme.adminKey), 404, 'not_found');
    await expectError(await call('POST', '/v2/agent/theirs/webhooks', acme.adminKey, { url: 'https://h.test' }), 404, 'not_found');
    await expectError(await call('GET', '/v2/agent/unknown/webhooks', globex.adminKey), 404, 'not_found');
    // The delivery log is still the agent router's.
    assert.equal((await call('GET', '/v2/agent/handbook/webhooks/deliveries', acme.adminKey)).status, 200);
  });
});
