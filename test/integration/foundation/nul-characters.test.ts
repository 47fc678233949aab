/**
 * A NUL character (U+0000) in a request is refused with 400 at the door, wherever it is: the URL
 * (`%00`, also on routes that need no key, such as a CORS preflight), a JSON body, the page-view
 * beacon's text body. PostgreSQL refuses NUL in text (SQLSTATE 22021), so on it these requests
 * answered 500, and a NUL in an analytics event made the recorder drop its whole batch. Behind the
 * door, a value PostgreSQL refuses is a 400 naming its SQLSTATE, never a 500. The whole API, on
 * SQLite and on a real PostgreSQL.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { DatabaseRejectedValueError } from '../../../core/db/errors.js';
import { toQuireError } from '../../../api/error-middleware.js';
import { databaseEnv, DIALECTS, freshTarget } from '../../support/databases.js';
import { seedOrg, serve, testServices, type SeededOrg } from '../../support/services.js';

for (const dialect of DIALECTS) {
  describe(`NUL characters in requests (${dialect})`, function () {
    this.timeout(60_000);
    let services: ApiServices;
    let url: string;
    let org: SeededOrg;

    before(async () => {
      services = await testServices({ withTemporal: false, env: databaseEnv(await freshTarget(dialect)) });
      org = await seedOrg(services);
      await services.tenants.putDomain({ id: 'docs', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
      url = (await serve(createApp(services))).url;
    });

    const refused = async (res: Response, where: RegExp) => {
      const body = (await res.json()) as { code: string; error: string; details?: Array<{ path: string }> };
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(body.code, 'invalid_request');
      assert.match(body.error, where);
      return body;
    };

    it('in the URL: 400 on a preflight that needs no key, a public file, an admin lookup and a query', async () => {
      await refused(await fetch(`${url}/discovery/v2/assistant/%00/message`, { method: 'OPTIONS', headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' } }), /URL contains a NUL/);
      await refused(await fetch(`${url}/discovery/v1/llms/%00.txt`), /URL contains a NUL/);
      await refused(await fetch(`${url}/v2/admin/projects/a%00b`, { headers: { authorization: `Bearer ${org.adminKey}` } }), /URL contains a NUL/);
      await refused(await fetch(`${url}/v2/agent/docs/jobs?cursor=%00`, { headers: { authorization: `Bearer ${org.adminKey}` } }), /URL contains a NUL/);
      // An id that merely does not exist is still a 404.
      assert.equal((await fetch(`${url}/v2/admin/projects/nope`, { headers: { authorization: `Bearer ${org.adminKey}` } })).status, 404);
    });

    it('in a JSON body: 400 naming where, in a value or a key', async () => {
      const search = await fetch(`${url}/discovery/v1/search/docs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${org.assistantKey}` },
        body: JSON.stringify({ query: 'install\u0000' }),
      });
      assert.deepEqual((await refused(search, /body contains a NUL character \(\\u0000\) at query/)).details?.map((d) => d.path), ['query']);
      const project = await fetch(`${url}/v2/admin/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${org.adminKey}` },
        body: JSON.stringify({ id: 'site', repository: 'https://git.example.com/docs.git', allowedModels: ['a', 'b\u0000'] }),
      });
      await refused(project, /at allowedModels\[1\]/);
      const key = await fetch(`${url}/discovery/v1/search/docs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${org.assistantKey}` },
        body: JSON.stringify({ query: 'install', filter: { 'a\u0000': 1 } }),
      });
      await refused(key, /at filter\.a/);
      // Nothing was created.
      assert.equal(await services.tenants.getProject('site'), undefined);
    });

    it("in the page-view beacon's text body: 400", async () => {
      const res = await fetch(`${url}/discovery/v1/analytics/docs/page-view`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://docs.example.com' },
        body: JSON.stringify({ key: org.assistantKey, path: '/a\u0000' }),
      });
      await refused(res, /at path/);
    });

    it('behind the door, a value the database refuses is a 400 naming its SQLSTATE', async () => {
      const read = await services.tenants.getDomain('x\u0000').then(
        (domain) => ({ domain }),
        (err: unknown) => ({ err }),
      );
      if (dialect === 'sqlite') {
        // SQLite takes the value as it is: nothing is found.
        assert.deepEqual(read, { domain: undefined });
        return;
      }
      assert.ok('err' in read && read.err instanceof DatabaseRejectedValueError, `got ${JSON.stringify(read)}`);
      assert.equal(read.err.sqlState, '22021');
      const answered = toQuireError(read.err);
      assert.equal(answered.status, 400);
      assert.match(answered.message, /SQLSTATE 22021/);
    });
  });
}
