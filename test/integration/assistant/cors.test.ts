import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { analyticsRouter } from '../../../api/analytics/index.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { searchRouter } from '../../../api/search/index.js';
import { applySeedFile } from '../../../core/tenants/seed-file.js';
import { tempDir, testConfig, testPlatform } from '../../support/services.js';
import { assistantWorld, userMessage, type AssistantWorld } from './harness.js';

const PAGE = 'http://pages.example.test:8080';
const OTHER = 'https://evil.example.test';

describe('CORS on the browser endpoints', () => {
  let world: AssistantWorld;
  before(async () => {
    // One request per hour: the second answers 429, which a page must be able to read.
    // Every feature with browser endpoints beside the assistant's.
    world = await assistantWorld({ orgLimits: { assistantPerOrgPerHour: 1 }, features: [analyticsRouter, searchRouter, mcpRouter, openAiCompatRouter] });
    await world.services.tenants.putDomain({
      id: 'portal',
      orgId: world.org.orgId,
      source: '.',
      docsPath: '',
      baseUrl: 'https://portal.example.com',
      includeHidden: false,
      allowedOrigins: [`${PAGE}/any/path`],
    });
  });
  after(() => world.close());

  const preflight = (route: string, origin: string) =>
    fetch(`${world.url}${route}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
  const ask = (domain: string, origin: string, init: { body?: string; key?: string } = {}) =>
    fetch(`${world.url}/discovery/v2/assistant/${domain}/message`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', ...(init.key === '' ? {} : { authorization: `Bearer ${init.key ?? world.org.assistantKey}` }) },
      body: init.body ?? JSON.stringify({ fp: 'a', messages: [userMessage('How do I install the CLI?')] }),
    });

  it('answers a preflight with the origin, the headers the AI SDK sends and a Max-Age, on every browser endpoint', async () => {
    for (const route of ['/discovery/v2/assistant/docs/message', '/discovery/v1/assistant/docs/message', '/discovery/v1/search/docs', '/discovery/v1/page/docs']) {
      const res = await preflight(route, OTHER);
      assert.equal(res.status, 204, route);
      assert.equal(res.headers.get('access-control-allow-origin'), OTHER, 'a domain without a list allows any origin');
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /Authorization/);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /Content-Type/);
      assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.equal(res.headers.get('access-control-max-age'), '600');
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
  });

  it('says Vary: Origin on a browser endpoint’s answer to a request without Origin, and adds no CORS header', async () => {
    const res = await fetch(`${world.url}/discovery/v2/assistant/docs/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}` },
      body: '{"fp":',
    });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('vary'), 'Origin');
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('puts the same Allow-Origin on the answer, on 400, 401 and 429, and exposes the thread, limit and request headers', async () => {
    const answer = await ask('docs', OTHER);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), OTHER);
    const exposed = answer.headers.get('access-control-expose-headers') ?? '';
    for (const h of ['X-Thread-Id', 'X-Thread-Key', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id']) assert.ok(exposed.includes(h), h);
    await answer.text();
    const limited = await ask('docs', OTHER);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('access-control-allow-origin'), OTHER);
    const badJson = await ask('docs', OTHER, { body: '{"fp":' });
    assert.equal(badJson.status, 400, 'body parsing runs after CORS');
    assert.equal(badJson.headers.get('access-control-allow-origin'), OTHER);
    const noKey = await ask('docs', OTHER, { key: '' });
    assert.equal(noKey.status, 401);
    assert.equal(noKey.headers.get('access-control-allow-origin'), OTHER);
  });

  it('refuses an origin the domain does not list on the request, with no CORS header', async () => {
    const allowed = await preflight('/discovery/v2/assistant/portal/message', PAGE);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), PAGE);
    const request = await ask('portal', OTHER);
    assert.equal(request.status, 403);
    assert.equal(request.headers.get('access-control-allow-origin'), null);
    assert.deepEqual(((await request.json()) as { code: string }).code, 'forbidden');
  });

  it('answers the preflight of an origin a domain does not list as it answers an unknown domain\'s, on every browser endpoint', async () => {
    /** Status, headers and body, but for the headers that differ per request. */
    const seen = async (res: Response) => ({
      status: res.status,
      headers: [...res.headers].filter(([name]) => !['date', 'x-request-id', 'keep-alive', 'connection'].includes(name)),
      body: await res.text(),
    });
    const routes = ['/discovery/v2/assistant/{d}/message', '/discovery/v1/search/{d}', '/discovery/v1/assistant/{d}/threads/t1', '/mcp/{d}', '/discovery/v1/openai/{d}/chat/completions'];
    for (const route of routes) {
      const restricted = await seen(await preflight(route.replace('{d}', 'portal'), OTHER));
      const unknown = await seen(await preflight(route.replace('{d}', 'no-such-domain'), OTHER));
      assert.deepEqual(restricted, unknown, route);
      assert.equal(restricted.status, 204, route);
    }
  });

  it('answers a request from an origin a domain does not list, without its organisation\'s key, as it answers an unknown domain\'s, on every browser endpoint', async () => {
    const { tenants } = world.services;
    await tenants.addOrg('rival');
    const { secret: rivalKey } = await tenants.createKey('rival', 'assistant');
    const seen = async (res: Response) => ({
      status: res.status,
      headers: [...res.headers].filter(([name]) => !['date', 'x-request-id', 'keep-alive', 'connection', 'content-length'].includes(name)),
      body: (await res.text()).replaceAll('portal', '{d}').replaceAll('no-such-domain', '{d}'),
    });
    const keys: Record<string, string | undefined> = { none: undefined, 'a wrong key': 'quire_dsc_not-a-key-0123456789', "another organisation's key": rivalKey };
    const routes: Array<[string, string]> = [
      ['POST', '/discovery/v2/assistant/{d}/message'],
      ['POST', '/discovery/v1/assistant/{d}/message'],
      ['POST', '/discovery/v1/assistant/{d}/feedback'],
      ['DELETE', '/discovery/v1/assistant/{d}/threads/t1'],
      ['POST', '/discovery/v1/search/{d}'],
      ['POST', '/discovery/v1/search/{d}/click'],
      ['POST', '/discovery/v1/page/{d}'],
      ['POST', '/mcp/{d}'],
      ['POST', '/discovery/v1/openai/{d}/chat/completions'],
      ['GET', '/discovery/v1/openai/{d}/models'],
      ['GET', '/discovery/v1/openai/{d}/models/quire'],
    ];
    const request = async (method: string, route: string, domain: string, key: string | undefined) =>
      seen(
        await fetch(`${world.url}${route.replace('{d}', domain)}`, {
          method,
          headers: { origin: OTHER, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body: method === 'POST' ? '{}' : undefined,
        }),
      );
    for (const [method, route] of routes) {
      for (const [who, key] of Object.entries(keys)) {
        const restricted = await request(method, route, 'portal', key);
        assert.deepEqual(restricted, await request(method, route, 'no-such-domain', key), `${method} ${route} with ${who}`);
        assert.doesNotMatch(restricted.body, /no such route/, `${method} ${route} is served`);
        assert.notEqual(restricted.status, 403, `${method} ${route} with ${who}`);
      }
    }
    // The page-view beacon carries its key in the body.
    const beacon = async (domain: string, key: string | undefined) =>
      seen(
        await fetch(`${world.url}/discovery/v1/analytics/${domain}/page-view`, {
          method: 'POST',
          headers: { origin: OTHER, 'content-type': 'text/plain' },
          body: JSON.stringify({ ...(key ? { key } : {}), path: '/intro' }),
        }),
      );
    for (const [who, key] of Object.entries(keys)) {
      const restricted = await beacon('portal', key);
      assert.deepEqual(restricted, await beacon('no-such-domain', key), `page-view with ${who}`);
      assert.notEqual(restricted.status, 403, `page-view with ${who}`);
      assert.doesNotMatch(restricted.body, /no such route/);
    }
    // The domain's own organisation's key is refused, before any limit is read or spent.
    const refused = await fetch(`${world.url}/discovery/v1/analytics/portal/page-view`, {
      method: 'POST',
      headers: { origin: OTHER, 'content-type': 'text/plain' },
      body: JSON.stringify({ key: world.org.assistantKey, path: '/intro' }),
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal(refused.headers.get('ratelimit-remaining'), null);
    const search = await fetch(`${world.url}/discovery/v1/search/portal`, {
      method: 'POST',
      headers: { origin: OTHER, 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}` },
      body: JSON.stringify({ query: 'install' }),
    });
    assert.equal(search.status, 403);
    assert.equal(search.headers.get('access-control-allow-origin'), null);
    assert.equal(search.headers.get('access-control-expose-headers'), null);
    assert.equal(search.headers.get('ratelimit-remaining'), null);
  });

  it("allows the API's own origin for a domain that restricts its origins: the public URL's and the host addressed", async () => {
    for (const own of [new URL(world.url).origin, new URL(world.services.config.publicUrl).origin]) {
      const res = await ask('portal', own, { key: '' });
      assert.equal(res.status, 401, own);
      assert.equal(res.headers.get('access-control-allow-origin'), own);
    }
    // The same host on another port is another origin.
    const port = Number(new URL(world.url).port);
    assert.equal((await ask('portal', `http://127.0.0.1:${port + 1}`)).status, 403);
  });

  it('leaves requests without an Origin alone, and answers no CORS at all on admin endpoints', async () => {
    const server = await fetch(`${world.url}/discovery/v2/assistant/portal/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(server.headers.get('access-control-allow-origin'), null);
    assert.notEqual(server.status, 403);
    const adminPreflight = await fetch(`${world.url}/v1/admin/threads/t1`, { method: 'OPTIONS', headers: { origin: OTHER, 'access-control-request-method': 'GET' } });
    assert.equal(adminPreflight.headers.get('access-control-allow-origin'), null);
    const admin = await fetch(`${world.url}/v1/admin/threads/t1`, { headers: { origin: OTHER, authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(admin.status, 404);
    assert.equal(admin.headers.get('access-control-allow-origin'), null);
  });

  it('takes allowed origins from the seed file, kept as origins, and refuses a non-http one naming the field', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'seed.yaml');
    const seed = (origins: string) =>
      `organisations:\n  - id: acme\n    domains:\n      - { id: site, source: ., baseUrl: https://docs.acme.com, allowedOrigins: [${origins}] }\n`;
    await fs.writeFile(file, seed('"https://docs.acme.com/", "http://localhost:3001"'));
    const store = (await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir }))).tenants;
    await applySeedFile(file, store);
    assert.deepEqual((await store.getDomain('site'))?.allowedOrigins, ['https://docs.acme.com', 'http://localhost:3001']);
    await fs.writeFile(file, seed('"ftp://files.acme.com"'));
    await assert.rejects(applySeedFile(file, store), /organisations\.0\.domains\.0\.allowedOrigins\.0: must be an http\(s\) URL/);
  });
});
