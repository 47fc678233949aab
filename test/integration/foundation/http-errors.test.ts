import assert from 'node:assert/strict';
import Router from '@koa/router';
import * as v from 'valibot';
import { createApp } from '../../../api/app.js';
import { authOf, requireKey } from '../../../api/auth.js';
import { healthRouter } from '../../../api/health.js';
import type { ApiServices, Feature } from '../../../api/services.js';
import { parseInput } from '../../../api/validation.js';
import { loadConfig } from '../../../core/config.js';
import { freePort } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, tempDir, testServices } from '../../support/services.js';

/** A route that uses the real middleware (auth, validation, limiter) the way every feature does. */
const probeFeature: Feature = (services: ApiServices) => {
  const router = new Router();
  router.post('/probe', requireKey(services.tenants, 'admin'), async (ctx) => {
    const body = parseInput(v.object({ prompt: v.pipe(v.string(), v.minLength(1)) }), ctx.request.body);
    const { orgId } = authOf(ctx);
    await services.limiter.consume([{ name: 'probe', subject: orgId, points: 2, window: 'hour' }]);
    ctx.status = 201;
    ctx.body = { orgId, prompt: body.prompt };
  });
  router.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  router.post('/start', async () => {
    await services.temporal.workflow.start('pingWorkflow', { taskQueue: 'nowhere', workflowId: 'x', args: ['a'] });
  });
  return router;
};

describe('HTTP errors through the real middleware', () => {
  let url: string;
  let keys: Awaited<ReturnType<typeof seedOrg>>;

  before(async () => {
    const services = await testServices({ withTemporal: false });
    keys = await seedOrg(services);
    url = (await serve(createApp(services, [healthRouter, probeFeature]))).url;
  });

  const post = (path: string, body: string | undefined, headers: Record<string, string> = {}) =>
    fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, ...(body !== undefined ? { body } : {}) });
  const admin = () => ({ authorization: `Bearer ${keys.adminKey}` });

  it('201 for a valid request, with a request id', async () => {
    const res = await post('/probe', JSON.stringify({ prompt: 'hi' }), admin());
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { orgId: 'acme', prompt: 'hi' });
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('400 names each broken field; invalid JSON is a 400 too', async () => {
    const res = await post('/probe', JSON.stringify({ prompt: '' }), admin());
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: string; details: Array<{ path: string }> };
    assert.equal(body.code, 'invalid_request');
    assert.deepEqual(body.details.map((d) => d.path), ['prompt']);
    const bad = await post('/probe', '{"prompt":', admin());
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'invalid_request');
  });

  it('401 with WWW-Authenticate for a missing or unknown key', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer quire_unknown0000000000000000000000000000000000' }, { authorization: 'Basic abc' }];
    for (const headers of attempts) {
      const res = await post('/probe', JSON.stringify({ prompt: 'x' }), headers);
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      assert.equal(((await res.json()) as { code: string }).code, 'unauthorized');
    }
  });

  it('403 for a valid key of the wrong kind', async () => {
    const res = await post('/probe', JSON.stringify({ prompt: 'x' }), { authorization: `Bearer ${keys.assistantKey}` });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { code: string }).code, 'forbidden');
  });

  it('404 JSON for an unknown route', async () => {
    const res = await fetch(url + '/nope');
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: 'no such route', code: 'not_found' });
  });

  it('413 over the body limit and 415 for a body that is not JSON', async () => {
    const big = await post('/probe', JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 10) }), admin());
    assert.equal(big.status, 413);
    assert.equal(((await big.json()) as { code: string }).code, 'payload_too_large');
    const text = await fetch(url + '/probe', { method: 'POST', headers: { 'content-type': 'text/plain', ...admin() }, body: 'hi' });
    assert.equal(text.status, 415);
    assert.equal(((await text.json()) as { code: string }).code, 'unsupported_media_type');
  });

  it('429 with Retry-After and RateLimit headers once the limit is spent', async () => {
    const services = await testServices({ withTemporal: false });
    const k = await seedOrg(services, 'limited');
    const { url: u } = await serve(createApp(services, [probeFeature]));
    const call = () => fetch(u + '/probe', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${k.adminKey}` }, body: '{"prompt":"x"}' });
    assert.equal((await call()).status, 201);
    assert.equal((await call()).status, 201);
    const refused = await call();
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { code: string }).code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
  });

  it('500 without leaking the message', async () => {
    const res = await fetch(url + '/boom');
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.ok(!text.includes('hunter2'));
    assert.deepEqual(JSON.parse(text), { error: 'internal error', code: 'internal' });
  });

  it('503 on a route when Temporal cannot be reached; /readyz stays 200 with Temporal degraded, and is 503 once the database is down too', async () => {
    const config = loadConfig({ QUIRE_DATA_DIR: await tempDir(), TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, LOG_LEVEL: 'silent' });
    const services = await servicesOn(config);
    const { url: u } = await serve(createApp(services, [healthRouter, probeFeature]));
    const res = await fetch(u + '/start', { method: 'POST' });
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { code: string }).code, 'unavailable');
    // The API serves the assistant and reads without Temporal: a load balancer keeps it in rotation.
    const ready = await fetch(u + '/readyz');
    assert.equal(ready.status, 200);
    const body = (await ready.json()) as { status: string; degraded: string[]; checks: Record<string, string> };
    assert.equal(body.status, 'degraded');
    assert.deepEqual(body.degraded, ['temporal']);
    assert.match(body.checks.temporal ?? '', /^down/);
    assert.equal(body.checks.database, 'ok');
    assert.equal((await fetch(u + '/healthz')).status, 200);

    await services.database.close();
    const noDatabase = await fetch(u + '/readyz');
    assert.equal(noDatabase.status, 503);
    const refused = (await noDatabase.json()) as { error: string; code: string; checks: Record<string, string> };
    assert.equal(refused.code, 'unavailable');
    assert.equal(refused.error, 'not ready: database unavailable');
    assert.match(refused.checks.database ?? '', /^down/);
  });
});
