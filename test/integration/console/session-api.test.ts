import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { conforms } from '../../support/openapi-conforms.js';
import { expectError } from '../../support/json-calls.js';
import { serve, twoOrgApi, type SeededOrg } from '../../support/services.js';

interface SessionBody {
  organisation: { id: string; name: string };
  csrfToken: string;
  expiresAt: string;
  publicUrl: string | null;
}

/** A browser's view of one sign-in: the cookie it holds and the CSRF token the console keeps in memory. */
interface SignedIn {
  cookie: string;
  csrfToken: string;
  setCookie: string;
  body: SessionBody;
}

describe('console session API', function () {
  this.timeout(60_000);
  let url = '';
  let services: ApiServices;
  let acme: SeededOrg;
  let globex: SeededOrg;

  before(async () => {
    ({ services, url, acme, globex } = await twoOrgApi({ withTemporal: false }));
    await services.tenants.putDomain({ id: 'globex-docs', orgId: 'globex', source: '/src', docsPath: '', baseUrl: 'https://globex.test', includeHidden: false });
    await services.tenants.putDomain({ id: 'acme-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://acme.test', includeHidden: false });
  });

  const json = (body: unknown) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  async function signIn(key: string, base = url, headers: Record<string, string> = {}): Promise<SignedIn> {
    const res = await fetch(`${base}/console/session`, { ...json({ key }), headers: { 'Content-Type': 'application/json', ...headers } });
    assert.equal(res.status, 201, await res.clone().text());
    await conforms('/console/session', 'post', res.clone());
    const setCookie = res.headers.getSetCookie()[0] ?? '';
    const body = (await res.json()) as SessionBody;
    return { cookie: setCookie.split(';')[0] ?? '', csrfToken: body.csrfToken, setCookie, body };
  }

  /** A request as the console's pages make it: the cookie, and the CSRF header when given. */
  const asConsole = (session: Pick<SignedIn, 'cookie'>, method: string, path: string, options: { csrf?: string; body?: unknown } = {}) =>
    fetch(url + path, {
      method,
      headers: {
        Cookie: session.cookie,
        ...(options.csrf === undefined ? {} : { 'X-CSRF-Token': options.csrf }),
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });

  it('exchanges an admin key for an HttpOnly, SameSite=Strict cookie and keeps only its hash', async () => {
    const before = Date.now();
    const session = await signIn(acme.adminKey);
    assert.deepEqual(session.body.organisation, { id: 'acme', name: 'acme' });
    const attributes = session.setCookie.split('; ');
    assert.match(attributes[0] ?? '', /^quire_console=[A-Za-z0-9_-]{43}$/);
    for (const attribute of ['Path=/', 'HttpOnly', 'SameSite=Strict']) assert.ok(attributes.includes(attribute), `${attribute} in ${session.setCookie}`);
    assert.ok(!attributes.includes('Secure'), 'no Secure over plain HTTP, or the browser would drop the cookie');
    const maxAge = Number(attributes.find((a) => a.startsWith('Max-Age='))?.slice('Max-Age='.length));
    assert.ok(maxAge > 11.9 * 3600 && maxAge <= 12 * 3600, `Max-Age ${maxAge} is the default 12 hours`);
    const expires = Date.parse(session.body.expiresAt);
    assert.ok(expires >= before + 12 * 3600_000 - 5000 && expires <= Date.now() + 12 * 3600_000, session.body.expiresAt);

    const token = session.cookie.slice('quire_console='.length);
    const rows = await services.database.queries.selectFrom('console_sessions').selectAll().where('org_id', '=', 'acme').execute();
    const row = rows.find((r) => r.token_hash === createHash('sha256').update(token).digest('hex'));
    assert.ok(row, 'the session is found by the token’s SHA-256');
    assert.equal(row.key_id, acme.adminKeyId);
    const stored = JSON.stringify(rows);
    assert.ok(!stored.includes(token) && !stored.includes(acme.adminKey), 'neither the token nor the key is stored');
  });

  it('marks the cookie Secure when the request came over TLS through a trusted proxy', async () => {
    const behindProxy = (await serve(createApp({ ...services, config: { ...services.config, trustProxy: true } }))).url;
    const session = await signIn(acme.adminKey, behindProxy, { 'X-Forwarded-Proto': 'https' });
    assert.ok(session.setCookie.split('; ').includes('Secure'), session.setCookie);
    // Without the proxy setting the header is not believed.
    assert.ok(!(await signIn(acme.adminKey, url, { 'X-Forwarded-Proto': 'https' })).setCookie.includes('Secure'));
  });

  it('reads the session back from its cookie, and answers not_signed_in without one', async () => {
    const session = await signIn(acme.adminKey);
    const res = await asConsole(session, 'GET', '/console/session');
    assert.equal(res.status, 200);
    await conforms('/console/session', 'get', res.clone());
    assert.deepEqual(await res.json(), session.body);
    assert.equal(res.headers.get('cache-control'), 'no-store');

    const none = await fetch(`${url}/console/session`);
    await conforms('/console/session', 'get', none.clone());
    await expectError(none, 401, 'not_signed_in');
    await expectError(await asConsole({ cookie: 'quire_console=forged' }, 'GET', '/console/session'), 401, 'not_signed_in');
  });

  it('refuses bad bodies naming the field, unknown keys, and assistant keys', async () => {
    await expectError(await fetch(`${url}/console/session`, json({})), 400, 'invalid_request', 'key');
    await expectError(await fetch(`${url}/console/session`, json({ key: 42 })), 400, 'invalid_request', 'key');
    await expectError(await fetch(`${url}/console/session`, json({ key: '' })), 400, 'invalid_request', 'key');
    await expectError(await fetch(`${url}/console/session`, json({ key: acme.adminKey, remember: true })), 400, 'invalid_request', 'remember');
    const form = await fetch(`${url}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `key=${acme.adminKey}` });
    await expectError(form, 415, 'unsupported_media_type');

    let res = await fetch(`${url}/console/session`, json({ key: 'quire_notakey' }));
    await conforms('/console/session', 'post', res.clone());
    await expectError(res, 401, 'invalid_key');
    res = await fetch(`${url}/console/session`, json({ key: acme.assistantKey }));
    assert.equal(res.headers.getSetCookie().length, 0, 'no cookie for an assistant key');
    await conforms('/console/session', 'post', res.clone());
    await expectError(res, 403, 'admin_key_required');

    const revoked = await services.tenants.createKey('acme', 'admin');
    await services.tenants.revokeKey(revoked.record.id);
    await expectError(await fetch(`${url}/console/session`, json({ key: revoked.secret })), 401, 'invalid_key');
    const expired = await services.tenants.createKey('acme', 'admin', new Date(Date.now() - 1000).toISOString());
    await expectError(await fetch(`${url}/console/session`, json({ key: expired.secret })), 401, 'invalid_key');
  });

  it('lets the cookie stand in for the admin key, with the CSRF token on every state-changing request', async () => {
    const session = await signIn(acme.adminKey);
    let res = await asConsole(session, 'GET', '/v2/admin/domains');
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { domains: Array<{ id: string }> }).domains.map((d) => d.id), ['acme-docs']);

    const project = { id: 'console-made', repository: 'https://git.acme.test/docs.git' };
    await expectError(await asConsole(session, 'POST', '/v2/admin/projects', { body: project }), 403, 'csrf_failed');
    await expectError(await asConsole(session, 'POST', '/v2/admin/projects', { body: project, csrf: 'wrong' }), 403, 'csrf_failed');
    const other = await signIn(acme.adminKey);
    await expectError(await asConsole(session, 'POST', '/v2/admin/projects', { body: project, csrf: other.csrfToken }), 403, 'csrf_failed');
    await expectError(await asConsole(session, 'DELETE', '/v2/admin/domains/acme-docs'), 403, 'csrf_failed');
    assert.equal((await services.tenants.getProject('console-made')), undefined, 'nothing was created without the token');

    res = await asConsole(session, 'POST', '/v2/admin/projects', { body: project, csrf: session.csrfToken });
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal(((await res.json()) as { orgId: string }).orgId, 'acme');
    // The API's own validation answers the console as it answers a key: the field is named.
    await expectError(await asConsole(session, 'POST', '/v2/admin/projects', { body: { id: 'Bad Id', repository: '' }, csrf: session.csrfToken }), 400, 'invalid_request', 'id');
    // Other admin routes take it too: analytics, and the jobs of a project.
    assert.equal((await asConsole(session, 'GET', '/v2/agent/console-made/jobs')).status, 200);
  });

  it('uses the Authorization header when one is sent, and never the cookie on assistant routes', async () => {
    const session = await signIn(acme.adminKey);
    const res = await fetch(`${url}/v2/admin/domains`, { headers: { Cookie: session.cookie, Authorization: `Bearer ${acme.assistantKey}` } });
    await expectError(res, 403, 'forbidden');
    const search = await fetch(`${url}/discovery/v1/search/acme-docs`, {
      method: 'POST',
      headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrfToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'retries' }),
    });
    await expectError(search, 401, 'unauthorized');
  });

  it('shows organisation A’s session nothing of organisation B', async () => {
    const session = await signIn(acme.adminKey);
    await expectError(await asConsole(session, 'GET', '/v2/admin/domains/globex-docs'), 404, 'not_found');
    await expectError(await asConsole(session, 'PATCH', '/v2/admin/domains/globex-docs', { body: { baseUrl: 'https://evil.test' }, csrf: session.csrfToken }), 404, 'not_found');
    await expectError(await asConsole(session, 'DELETE', `/v2/admin/keys/${globex.adminKeyId}`, { csrf: session.csrfToken }), 404, 'not_found');
    await expectError(await asConsole(session, 'GET', '/v1/analytics/globex-docs/gaps'), 404, 'not_found');
    const domains = (await (await asConsole(session, 'GET', '/v2/admin/domains')).json()) as { domains: Array<{ id: string }> };
    assert.ok(!domains.domains.some((d) => d.id.startsWith('globex')));
    assert.equal((await services.tenants.getDomain('globex-docs'))?.baseUrl, 'https://globex.test');
  });

  it('ends the session on sign-out: the old cookie is refused after', async () => {
    const session = await signIn(acme.adminKey);
    await expectError(await asConsole(session, 'DELETE', '/console/session'), 403, 'csrf_failed');
    assert.equal((await asConsole(session, 'GET', '/console/session')).status, 200, 'a refused sign-out leaves the session alone');

    const res = await asConsole(session, 'DELETE', '/console/session', { csrf: session.csrfToken });
    assert.equal(res.status, 204);
    await conforms('/console/session', 'delete', res.clone());
    const cleared = res.headers.getSetCookie()[0] ?? '';
    assert.match(cleared, /^quire_console=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);

    await expectError(await asConsole(session, 'GET', '/console/session'), 401, 'not_signed_in');
    await expectError(await asConsole(session, 'GET', '/v2/admin/domains'), 401, 'unauthorized');
    await expectError(await asConsole(session, 'POST', '/v2/admin/projects', { body: { id: 'after', repository: '/r' }, csrf: session.csrfToken }), 401, 'unauthorized');
  });

  it('ends every session of a key when the key is revoked', async () => {
    const key = await services.tenants.createKey('acme', 'admin');
    const session = await signIn(key.secret);
    const bystander = await signIn(acme.adminKey);
    assert.equal((await asConsole(session, 'GET', '/v2/admin/keys')).status, 200);
    const res = await asConsole(bystander, 'DELETE', `/v2/admin/keys/${key.record.id}`, { csrf: bystander.csrfToken });
    assert.equal(res.status, 204);
    await expectError(await asConsole(session, 'GET', '/console/session'), 401, 'not_signed_in');
    await expectError(await asConsole(session, 'GET', '/v2/admin/keys'), 401, 'unauthorized');
    assert.equal((await asConsole(bystander, 'GET', '/console/session')).status, 200, 'other keys’ sessions go on');
  });

  it('never lets a session outlive its key', async () => {
    const keyExpiry = new Date(Date.now() + 3600_000).toISOString();
    const key = await services.tenants.createKey('acme', 'admin', keyExpiry);
    const session = await signIn(key.secret);
    assert.equal(Date.parse(session.body.expiresAt), Date.parse(keyExpiry));
    const maxAge = Number(/Max-Age=(\d+)/.exec(session.setCookie)?.[1]);
    assert.ok(maxAge <= 3600 && maxAge > 3500, `Max-Age ${maxAge} ends with the key`);
  });

  it('takes its lifetime from QUIRE_CONSOLE_SESSION_HOURS', async () => {
    const shortLived = (await serve(createApp({ ...services, config: { ...services.config, console: { ...services.config.console, sessionHours: 1 } } }))).url;
    const session = await signIn(acme.adminKey, shortLived);
    assert.ok(Number(/Max-Age=(\d+)/.exec(session.setCookie)?.[1]) <= 3600);
    assert.ok(Date.parse(session.body.expiresAt) <= Date.now() + 3600_000);
  });

  it('names QUIRE_PUBLIC_URL for the console’s copyable URLs, and null when it is unset', async () => {
    assert.equal(services.config.console.publicUrl, undefined, 'the suite’s API runs without QUIRE_PUBLIC_URL');
    assert.equal((await signIn(acme.adminKey)).body.publicUrl, null);

    const publicUrl = 'https://docs-ai.example.com/quire';
    const proxied = (await serve(createApp({ ...services, config: { ...services.config, publicUrl, console: { ...services.config.console, publicUrl } } }))).url;
    const session = await signIn(acme.adminKey, proxied);
    assert.equal(session.body.publicUrl, publicUrl);
    const read = await fetch(`${proxied}/console/session`, { headers: { Cookie: session.cookie } });
    await conforms('/console/session', 'get', read.clone());
    assert.equal(((await read.json()) as SessionBody).publicUrl, publicUrl, 'reading the session back names it too');
  });
});
