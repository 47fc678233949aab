import assert from 'node:assert/strict';
import net from 'node:net';
import Router from '@koa/router';
import { createApp } from '../../../api/app.js';
import { authOf, requireKey } from '../../../api/auth.js';
import type { ApiServices, Feature } from '../../../api/services.js';
import { rawRequest, type RawResponse } from '../../support/raw-http.js';
import { seedOrg, serve, testServices } from '../../support/services.js';

const LIMIT = 2048;

const prototypeOf = (body: unknown) => {
  const proto: unknown = typeof body === 'object' && body !== null ? Object.getPrototypeOf(body) : undefined;
  return proto === Object.prototype ? 'object' : proto === Array.prototype ? 'array' : 'other';
};

/** Echoes the parsed body, and whether it is a plain object (not one whose prototype a body replaced). */
const echoFeature: Feature = (services: ApiServices) => {
  const router = new Router();
  router.post('/echo', requireKey(services.tenants, 'admin'), (ctx) => {
    const body: unknown = ctx.request.body;
    ctx.body = { orgId: authOf(ctx).orgId, body, prototype: prototypeOf(body) };
  });
  return router;
};

/** The body in chunked transfer encoding: no Content-Length. */
const chunked = (body: Buffer) => (body.length ? `${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n` : '') + '0\r\n\r\n';

describe('request bodies: each answers alike sent with a Content-Length and chunked', () => {
  let url: string;
  let auth: string;

  before(async () => {
    const services = await testServices({ withTemporal: false, env: { QUIRE_BODY_LIMIT: String(LIMIT) } });
    const keys = await seedOrg(services);
    auth = `Authorization: Bearer ${keys.adminKey}`;
    url = (await serve(createApp(services, [echoFeature]))).url;
  });

  const send = (type: string, body: Buffer, how: 'length' | 'chunked'): Promise<RawResponse> =>
    rawRequest(
      url,
      Buffer.concat([
        Buffer.from(
          `POST /echo HTTP/1.1\r\nHost: test\r\nConnection: close\r\n${auth}\r\nContent-Type: ${type}\r\n` +
            (how === 'length' ? `Content-Length: ${body.length}\r\n\r\n` : 'Transfer-Encoding: chunked\r\n\r\n'),
        ),
        how === 'length' ? body : Buffer.from(chunked(body), 'latin1'),
      ]),
    );

  const outcome = (res: RawResponse) => {
    const json = JSON.parse(res.body) as { code?: string; error?: string; body?: unknown; prototype?: string };
    return { status: res.status, code: json.code, error: json.error, body: json.body, prototype: json.prototype };
  };

  const NOT_JSON = 'request body is not valid JSON (an object or an array)';
  const cases: Array<{ what: string; type?: string; body: string | Buffer; status: number; code?: string; error?: string }> = [
    { what: 'an object', body: '{"prompt":"hi","n":[1,2,{"x":null}]}', status: 200 },
    { what: 'an array', body: '[1,"two"]', status: 200 },
    { what: 'an empty body', body: '', status: 200 },
    { what: 'whitespace before the object', body: ' \n\t{"a":1}', status: 200 },
    { what: 'a UTF-8 byte order mark', body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]), status: 200 },
    { what: 'multi-byte characters', body: '{"q":"Wie installiere ich die CLI? 日本語 🚀"}', status: 200 },
    { what: 'invalid UTF-8 (replaced, as iconv does)', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), status: 200 },
    { what: 'a charset parameter', type: 'application/json; charset=UTF-8', body: '{"a":1}', status: 200 },
    { what: 'a quoted charset', type: 'Application/JSON;charset="utf-8"', body: '{"a":1}', status: 200 },
    { what: 'a string, not an object', body: '"hello"', status: 400, code: 'invalid_request', error: NOT_JSON },
    { what: 'a number', body: '42', status: 400, code: 'invalid_request', error: NOT_JSON },
    { what: 'broken JSON', body: '{"prompt":', status: 400, code: 'invalid_request', error: NOT_JSON },
    { what: 'only whitespace', body: '   ', status: 400, code: 'invalid_request', error: NOT_JSON },
    { what: 'a __proto__ key', body: '{"a":{"__proto__":{"admin":true}}}', status: 400, code: 'invalid_request' },
    { what: 'an escaped __proto__ key', body: '{"\\u005f_proto__":{"admin":true}}', status: 400, code: 'invalid_request' },
    { what: '__proto__ as a value only', body: '{"a":"__proto__"}', status: 200 },
    { what: 'a body at the limit', body: `{"p":"${'x'.repeat(LIMIT - 8)}"}`, status: 200 },
    { what: 'a body one byte over the limit', body: `{"p":"${'x'.repeat(LIMIT - 7)}"}`, status: 413, code: 'payload_too_large' },
    { what: 'text/plain', type: 'text/plain', body: '{"a":1}', status: 415, code: 'unsupported_media_type' },
    { what: 'another charset (decoded as UTF-8 all the same)', type: 'application/json; charset=latin1', body: '{"a":1}', status: 200 },
  ];

  for (const c of cases) {
    it(`${c.what}: ${c.status}${c.code ? ` ${c.code}` : ''}, the same by Content-Length and chunked`, async () => {
      const bytes = typeof c.body === 'string' ? Buffer.from(c.body) : c.body;
      const type = c.type ?? 'application/json';
      const byLength = outcome(await send(type, bytes, 'length'));
      const byChunks = outcome(await send(type, bytes, 'chunked'));
      assert.equal(byLength.status, c.status);
      assert.equal(byLength.code, c.code);
      if (c.error) assert.equal(byLength.error, c.error);
      assert.deepEqual(byLength, byChunks);
      if (c.status === 200) {
        const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
        const expected: unknown = text ? JSON.parse(text) : {};
        assert.deepEqual(byLength.body, expected);
        assert.equal(byLength.prototype, Array.isArray(expected) ? 'array' : 'object');
      }
    });
  }

  it('a client gone before the end of its body gets no answer and leaves the server serving', async () => {
    const { hostname, port } = new URL(url);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(`POST /echo HTTP/1.1\r\nHost: test\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
    });
    const after = outcome(await send('application/json', Buffer.from('{"a":1}'), 'length'));
    assert.deepEqual(after, { status: 200, code: undefined, error: undefined, body: { a: 1 }, prototype: 'object' });
  });
});
