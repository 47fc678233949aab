import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';
import { createApp } from '../../../api/app.js';
import { authOf, requireKey } from '../../../api/auth.js';
import { agentRouter } from '../../../api/agent/index.js';
import { healthRouter } from '../../../api/health.js';
import type { ApiServices, Feature } from '../../../api/services.js';
import { rawRequest } from '../../support/raw-http.js';
import { seedOrg, serve, testServices } from '../../support/services.js';

/** A POST route behind the real auth middleware. */
const echoFeature: Feature = (services: ApiServices) => {
  const router = new Router();
  router.post('/echo', requireKey(services.tenants, 'admin'), (ctx) => {
    ctx.body = { orgId: authOf(ctx).orgId, body: ctx.request.body };
  });
  return router;
};

const isErrorShape = (body: unknown, code: string) => {
  assert.ok(typeof body === 'object' && body !== null, 'a JSON object');
  const { error, code: actual } = body as { error?: unknown; code?: unknown };
  assert.equal(typeof error, 'string');
  assert.equal(actual, code);
};

describe('HTTP strictness: every refusal is a JSON error of API.md', () => {
  let url: string;
  let keys: Awaited<ReturnType<typeof seedOrg>>;

  before(async () => {
    const services = await testServices({ withTemporal: false });
    keys = await seedOrg(services);
    await services.tenants.putProject({
      id: 'docs',
      orgId: keys.orgId,
      repository: '.',
      branch: 'main',
      docsPath: '',
      forge: 'local',
      allowedModels: [],
    });
    url = (await serve(createApp(services, [healthRouter, echoFeature, agentRouter]))).url;
  });

  const request = (method: string, path: string, headers: string[] = [], body = '') =>
    rawRequest(
      url,
      `${method} ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}` +
        (body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '') +
        `\r\n${body}`,
    );

  it('TRACE, DELETE and other methods a path does not serve: 405 JSON with Allow', async () => {
    for (const method of ['TRACE', 'DELETE', 'PUT', 'PATCH']) {
      const res = await request(method, '/healthz');
      assert.equal(res.status, 405, method);
      assert.match(res.headers['content-type'] ?? '', /^application\/json/);
      assert.equal(res.headers.allow, 'HEAD, GET');
      isErrorShape(JSON.parse(res.body), 'method_not_allowed');
    }
    const get = await request('GET', '/echo');
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
  });

  it('an unsupported method on an unknown path: 404 JSON', async () => {
    const res = await request('TRACE', '/nowhere');
    assert.equal(res.status, 404);
    isErrorShape(JSON.parse(res.body), 'not_found');
  });

  it('raw bytes in the request line, or a method Node does not know: 400 JSON', async () => {
    const attempts = [
      Buffer.from('GET /heal\x01thz HTTP/1.1\r\nHost: test\r\n\r\n', 'latin1'),
      Buffer.from('GET /\x00 HTTP/1.1\r\nHost: test\r\n\r\n', 'latin1'),
      Buffer.from('BREW /healthz HTTP/1.1\r\nHost: test\r\n\r\n', 'latin1'),
      Buffer.from('GET /healthz HTTP/1.1\r\nHo\x7fst: test\r\n\r\n', 'latin1'),
    ];
    for (const bytes of attempts) {
      const res = await rawRequest(url, bytes);
      assert.equal(res.status, 400, JSON.stringify(bytes.toString('latin1')));
      assert.match(res.headers['content-type'] ?? '', /^application\/json/);
      isErrorShape(JSON.parse(res.body), 'invalid_request');
    }
  });

  it('two Authorization headers are refused, whichever comes first', async () => {
    const good = `Authorization: Bearer ${keys.adminKey}`;
    const orders = [
      [good, 'Authorization: Bearer quire_someoneelse00000000000000000000000000000'],
      ['Authorization: Bearer quire_someoneelse00000000000000000000000000000', good],
      // Header names are case-insensitive: a second one spelled differently is still a second one.
      [good, 'AUTHORIZATION: Bearer quire_someoneelse00000000000000000000000000000'],
      ['authorization: Bearer quire_someoneelse00000000000000000000000000000', good],
    ];
    for (const headers of orders) {
      const res = await request('POST', '/echo', [...headers, 'Content-Type: application/json'], '{}');
      assert.equal(res.status, 400);
      const body = JSON.parse(res.body) as { details?: Array<{ path: string }> };
      isErrorShape(body, 'invalid_request');
      assert.deepEqual(body.details?.map((d) => d.path), ['Authorization']);
    }
    const once = await request('POST', '/echo', [good, 'Content-Type: application/json'], '{}');
    assert.equal(once.status, 200);
  });

  it('a gzip body that is not gzip (or brotli that is not brotli) is a 400, and real gzip is read', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await fetch(`${url}/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.adminKey}`, 'content-type': 'application/json', 'content-encoding': encoding },
        body: 'this is not compressed',
      });
      assert.equal(res.status, 400, encoding);
      isErrorShape(await res.json(), 'invalid_request');
    }
    const zipped = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.adminKey}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ hello: 'world' })),
    });
    assert.equal(zipped.status, 200);
    assert.deepEqual(((await zipped.json()) as { body: unknown }).body, { hello: 'world' });
  });

  it('a prompt of only whitespace is refused with 400 naming the field', async () => {
    for (const prompt of ['   ', '\n\t ', '\u00a0\u3000']) {
      const res = await fetch(`${url}/v2/agent/docs/job`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
      });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { details: Array<{ path: string }> };
      isErrorShape(body, 'invalid_request');
      assert.deepEqual(body.details.map((d) => d.path), ['prompt']);
    }
  });
});

describe('HTTP strictness on the endpoints browsers call', () => {
  let url: string;

  before(async () => {
    url = (await serve(createApp(await testServices({ withTemporal: false })))).url;
  });

  it('a method a browser endpoint does not serve: 405 with its Allow, not 404; OPTIONS without an Origin lists only its methods', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/discovery/v1/openai/docs/chat/completions', 'POST'],
      ['PUT', '/discovery/v2/assistant/docs/message', 'POST'],
      ['GET', '/discovery/v1/search/docs', 'POST'],
      ['DELETE', '/discovery/v1/analytics/docs/page-view', 'POST'],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await fetch(`${url}${path}`, { method });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.ok((res.headers.get('allow') ?? '').split(', ').includes(allowed), `${method} ${path}: Allow ${res.headers.get('allow')}`);
      const body = (await res.json()) as { error: unknown };
      // The OpenAI-compatible endpoint answers in OpenAI's error object; the others in Quire's.
      if (path.includes('/openai/')) assert.equal((body.error as { code?: string }).code, 'method_not_allowed');
      else isErrorShape(body, 'method_not_allowed');
    }
    const options = await fetch(`${url}/discovery/v1/openai/docs/chat/completions`, { method: 'OPTIONS' });
    const allow = (options.headers.get('allow') ?? '').split(', ');
    assert.ok(allow.includes('POST') && !allow.includes('DELETE') && allow.length <= 3, `Allow: ${allow.join(', ')}`);
  });
});
