import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { serve, testServices, twoOrgApi, type SeededOrg } from '../../support/services.js';

const OPERATOR_TOKEN = 'operator-test-token-0123456789';

describe('admin API', function () {
  this.timeout(60_000);
  let url = '';
  let services: ApiServices;
  let acme: SeededOrg;
  let globex: SeededOrg;

  before(async () => {
    // A task queue no worker polls: an indexing run started here waits.
    // Admins may name paths under /repos on this server (the operator's QUIRE_ADMIN_LOCAL_PATHS); the folders need not exist.
    ({ services, url, acme, globex } = await twoOrgApi({ env: { QUIRE_OPERATOR_TOKEN: OPERATOR_TOKEN, QUIRE_ADMIN_LOCAL_PATHS: '/repos' }, taskQueue: `admin-api-${process.pid}` }));
  });

  const call = bearerCaller(() => url);

  const project = { id: 'handbook', repository: '/repos/handbook.git', branch: 'main', docsPath: 'docs', allowedModels: ['m1'] };
  const domain = { id: 'acme-docs', source: '/repos/docs', baseUrl: 'https://docs.acme.test', allowedOrigins: ['https://docs.acme.test/'], supportContact: 'help@acme.test' };

  describe('projects', () => {
    it('creates, reads, lists, patches only the named fields and deletes', async () => {
      let res = await call('POST', '/v2/admin/projects', acme.adminKey, project);
      assert.equal(res.status, 201);
      await conforms('/v2/admin/projects', 'post', res.clone());
      assert.equal(((await res.json()) as { orgId: string }).orgId, 'acme');

      res = await call('GET', '/v2/admin/projects', acme.adminKey);
      await conforms('/v2/admin/projects', 'get', res.clone());
      assert.deepEqual(((await res.json()) as { projects: Array<{ id: string }> }).projects.map((p) => p.id), ['handbook']);
      res = await call('GET', '/v2/admin/projects', globex.adminKey);
      assert.deepEqual(((await res.json()) as { projects: unknown[] }).projects, []);

      res = await call('PATCH', '/v2/admin/projects/handbook', acme.adminKey, { branch: 'release' });
      assert.equal(res.status, 200);
      await conforms('/v2/admin/projects/{projectId}', 'patch', res.clone());
      const patched = (await res.json()) as Record<string, unknown>;
      assert.equal(patched.branch, 'release');
      assert.equal(patched.repository, project.repository);
      assert.equal(patched.docsPath, 'docs');
      assert.deepEqual(patched.allowedModels, ['m1']);

      res = await call('GET', '/v2/admin/projects/handbook', acme.adminKey);
      await conforms('/v2/admin/projects/{projectId}', 'get', res.clone());
      assert.equal(((await res.json()) as { branch: string }).branch, 'release');

      res = await call('DELETE', '/v2/admin/projects/handbook', acme.adminKey);
      assert.equal(res.status, 204);
      await expectError(await call('GET', '/v2/admin/projects/handbook', acme.adminKey), 404, 'not_found');
    });

    /** Status and body of a create, with the id put back as `{id}`: what tells one taken id from another. */
    const refusal = async (res: Response, id: string) => ({ status: res.status, body: (await res.text()).split(id).join('{id}') });

    it('refuses a taken id with 409 id_taken, even when another organisation holds it', async () => {
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'taken' })).status, 201);
      await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'taken' }), 409, 'id_taken');
      const res = await call('POST', '/v2/admin/projects', globex.adminKey, { ...project, id: 'taken', repository: '/repos/globex-taken.git' });
      await conforms('/v2/admin/projects', 'post', res.clone());
      assert.deepEqual(await res.json(), { error: "project id 'taken' is taken: choose another id", code: 'id_taken' });
    });

    it("keeps a deleted project's id for its organisation: another organisation is refused it with 409, the same one takes it again", async () => {
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'retired' })).status, 201);
      assert.equal((await call('DELETE', '/v2/admin/projects/retired', acme.adminKey)).status, 204);
      await expectError(await call('POST', '/v2/admin/projects', globex.adminKey, { ...project, id: 'retired', repository: '/repos/globex-retired.git' }), 409, 'id_taken');
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'retired' })).status, 201);
      assert.equal((await call('DELETE', '/v2/admin/domains/no-such', acme.adminKey)).status, 404);
      assert.equal((await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'retired-site' })).status, 201);
      assert.equal((await call('DELETE', '/v2/admin/domains/retired-site', acme.adminKey)).status, 204);
      await expectError(await call('POST', '/v2/admin/domains', globex.adminKey, { ...domain, id: 'retired-site', source: '/repos/globex-retired' }), 409, 'id_taken');
    });

    it("answers another organisation's live id and its deleted id alike, as this organisation's own live id", async () => {
      // acme holds one live project and one deleted; globex asks for each, and acme for its live one.
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'held-live' })).status, 201);
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'held-gone' })).status, 201);
      assert.equal((await call('DELETE', '/v2/admin/projects/held-gone', acme.adminKey)).status, 204);
      const live = await refusal(await call('POST', '/v2/admin/projects', globex.adminKey, { ...project, id: 'held-live', repository: '/repos/g1.git' }), 'held-live');
      const gone = await refusal(await call('POST', '/v2/admin/projects', globex.adminKey, { ...project, id: 'held-gone', repository: '/repos/g2.git' }), 'held-gone');
      const own = await refusal(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'held-live' }), 'held-live');
      assert.deepEqual(live, gone);
      assert.deepEqual(live, own);
      assert.equal(live.status, 409);
      // The same for domains.
      assert.equal((await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'site-live' })).status, 201);
      assert.equal((await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'site-gone' })).status, 201);
      assert.equal((await call('DELETE', '/v2/admin/domains/site-gone', acme.adminKey)).status, 204);
      const liveSite = await refusal(await call('POST', '/v2/admin/domains', globex.adminKey, { ...domain, id: 'site-live', source: '/repos/g3' }), 'site-live');
      const goneSite = await refusal(await call('POST', '/v2/admin/domains', globex.adminKey, { ...domain, id: 'site-gone', source: '/repos/g4' }), 'site-gone');
      assert.deepEqual(liveSite, goneSite);
      assert.deepEqual(liveSite, { status: 409, body: JSON.stringify({ error: "domain id '{id}' is taken: choose another id", code: 'id_taken' }) });
      // Out of the listings the other tests read.
      assert.equal((await call('DELETE', '/v2/admin/projects/held-live', acme.adminKey)).status, 204);
      assert.equal((await call('DELETE', '/v2/admin/domains/site-live', acme.adminKey)).status, 204);
    });

    it("refuses a repository or source on this server outside the operator's folders, and a git remote helper, with 400 naming the field; keeps one the operator set", async () => {
      for (const repository of ['/etc', '/var/lib/quire', 'file:///srv/other.git', 'ext::sh -c id', '/repos/../etc']) {
        await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'located', repository }), 400, 'invalid_request', 'repository');
        await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'located-site', source: repository }), 400, 'invalid_request', 'source');
      }
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'located', repository: 'https://git.acme.test/docs.git' })).status, 201);
      // Set by the operator (the CLI, the seed file): a change of other fields keeps it, a change to another path outside is refused.
      await services.tenants.putProject({ ...project, id: 'operator-set', orgId: 'acme', repository: '/srv/operator/docs.git', forge: 'local' });
      let res = await call('PATCH', '/v2/admin/projects/operator-set', acme.adminKey, { repository: '/srv/operator/docs.git', branch: 'next' });
      assert.equal(res.status, 200);
      await expectError(await call('PATCH', '/v2/admin/projects/operator-set', acme.adminKey, { repository: '/srv/operator/other.git' }), 400, 'invalid_request', 'repository');
      res = await call('PATCH', '/v2/admin/projects/operator-set', acme.adminKey, { repository: '/repos/moved.git' });
      assert.equal(res.status, 200);
    });

    it("refuses a folder of this server that another organisation's project or domain reads, or one inside or around it", async () => {
      // The operator set globex's repository and docs under the folder admins may name.
      await services.tenants.putProject({ ...project, id: 'globex-repo', orgId: 'globex', repository: '/repos/globex/docs.git', forge: 'local' });
      await services.tenants.putDomain({ id: 'globex-site', orgId: 'globex', source: '/repos/globex-site', docsPath: '', baseUrl: 'https://docs.globex.test', includeHidden: false });
      // Refused as a path outside the operator's folders is, naming nothing of globex's.
      const outside = async (field: 'repository' | 'source') => {
        const res = await call('POST', field === 'repository' ? '/v2/admin/projects' : '/v2/admin/domains', acme.adminKey, field === 'repository' ? { ...project, id: 'borrowed', repository: '/etc' } : { ...domain, id: 'borrowed-site', source: '/etc' });
        return { status: res.status, body: await res.json() };
      };
      const [outsideRepository, outsideSource] = [await outside('repository'), await outside('source')];
      for (const repository of ['/repos/globex/docs.git', '/repos/globex/docs.git/', '/repos/globex', '/repos/globex-site/docs', '/repos']) {
        let res = await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'borrowed', repository });
        assert.deepEqual({ status: res.status, body: await res.json() }, outsideRepository, repository);
        res = await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'borrowed-site', source: repository });
        assert.deepEqual({ status: res.status, body: await res.json() }, outsideSource, repository);
      }
      assert.equal(outsideRepository.status, 400);
      assert.doesNotMatch(JSON.stringify([outsideRepository, outsideSource]), /globex/);
      assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'beside', repository: '/repos/globex-other.git' })).status, 201);
      await expectError(await call('PATCH', '/v2/admin/projects/beside', acme.adminKey, { repository: '/repos/globex/docs.git' }), 400, 'invalid_request', 'repository');
      // Its own organisation names it.
      assert.equal((await call('PATCH', '/v2/admin/projects/globex-repo', globex.adminKey, { repository: '/repos/globex/docs.git', branch: 'next' })).status, 200);
      assert.equal((await call('POST', '/v2/admin/domains', globex.adminKey, { ...domain, id: 'globex-more', source: '/repos/globex/docs.git' })).status, 201);
    });

    it('answers another organisation’s project and unknown ids 404', async () => {
      await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'private' });
      for (const [method, body] of [['GET'], ['PATCH', { branch: 'x' }], ['DELETE']] as const) {
        await expectError(await call(method, '/v2/admin/projects/private', globex.adminKey, body), 404, 'not_found');
        await expectError(await call(method, '/v2/admin/projects/no-such', acme.adminKey, body), 404, 'not_found');
      }
      assert.equal(((await (await call('GET', '/v2/admin/projects/private', acme.adminKey)).json()) as { branch: string }).branch, 'main');
    });

    it('answers bad bodies 400 naming the field', async () => {
      await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'Bad Id' }), 400, 'invalid_request', 'id');
      await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { id: 'no-repo' }), 400, 'invalid_request', 'repository');
      // The docs folder stays inside the repository: the worker reads and writes there.
      for (const docsPath of ['../../etc', 'docs/../..', '..']) {
        await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'climbing', docsPath }), 400, 'invalid_request', 'docsPath');
        await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'climbing', docsPath }), 400, 'invalid_request', 'docsPath');
      }
      await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'gh', forge: 'github' }), 400, 'invalid_request', 'forgeTokenEnv');
      // Quire's own settings are never a project's token: the worker would send its database URL to the repository's host.
      for (const name of ['QUIRE_DATABASE_URL', 'QUIRE_MODEL_API_KEY', 'TEMPORAL_API_KEY', 'OTEL_EXPORTER_OTLP_HEADERS'])
        await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'gh', forge: 'github', forgeTokenEnv: name }), 400, 'invalid_request', 'forgeTokenEnv');
      await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'patchable' });
      await expectError(await call('PATCH', '/v2/admin/projects/patchable', acme.adminKey, { forge: 'svn' }), 400, 'invalid_request', 'forge');
      await expectError(await call('PATCH', '/v2/admin/projects/patchable', acme.adminKey, { colour: 'red' }), 400, 'invalid_request', 'colour');
      await expectError(await call('PATCH', '/v2/admin/projects/patchable', acme.adminKey, { forge: 'gitlab' }), 400, 'invalid_request', 'forgeTokenEnv');
    });
  });

  describe('repository and source URLs with credentials', () => {
    const withToken = 'https://x-access-token:ghp_0123456789abcdef@git.acme.test/acme/handbook.git';
    const masked = 'https://***@git.acme.test/acme/handbook.git';

    it('are shown masked everywhere, and a form sent back as shown keeps the stored credentials', async () => {
      const created = await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'private-docs', repository: withToken });
      assert.equal(created.status, 201);
      const texts = [await created.text()];
      for (const path of ['/v2/admin/projects', '/v2/admin/projects/private-docs']) texts.push(await (await call('GET', path, acme.adminKey)).text());
      // The console sends its whole form back: the masked URL with a changed branch.
      const saved = await call('PATCH', '/v2/admin/projects/private-docs', acme.adminKey, { repository: masked, branch: 'release' });
      assert.equal(saved.status, 200);
      texts.push(await saved.text());
      for (const text of texts) {
        assert.doesNotMatch(text, /ghp_0123456789abcdef|x-access-token/);
        assert.ok(text.includes(masked), text);
      }
      assert.equal((await services.tenants.getProject('private-docs'))?.repository, withToken);
      assert.equal((await services.tenants.getProject('private-docs'))?.branch, 'release');

      // Another repository on the same host, its credentials still masked: it takes the stored ones.
      await call('PATCH', '/v2/admin/projects/private-docs', acme.adminKey, { repository: 'https://***@git.acme.test/acme/manual.git' });
      assert.equal((await services.tenants.getProject('private-docs'))?.repository, 'https://x-access-token:ghp_0123456789abcdef@git.acme.test/acme/manual.git');
      // New credentials replace them; a URL without any drops them.
      await call('PATCH', '/v2/admin/projects/private-docs', acme.adminKey, { repository: 'https://bot:other-token@git.acme.test/acme/manual.git' });
      assert.equal((await services.tenants.getProject('private-docs'))?.repository, 'https://bot:other-token@git.acme.test/acme/manual.git');
      await call('PATCH', '/v2/admin/projects/private-docs', acme.adminKey, { repository: 'https://git.acme.test/acme/manual.git' });
      assert.equal((await services.tenants.getProject('private-docs'))?.repository, 'https://git.acme.test/acme/manual.git');
      // The mask with nothing stored behind it is refused, on a change and on a create.
      await expectError(await call('PATCH', '/v2/admin/projects/private-docs', acme.adminKey, { repository: masked }), 400, 'invalid_request', 'repository');
      await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'masked', repository: masked }), 400, 'invalid_request', 'repository');
      assert.equal((await call('DELETE', '/v2/admin/projects/private-docs', acme.adminKey)).status, 204);
    });

    it("a domain's source the same way", async () => {
      const source = 'https://reader:glpat-secret-source@git.acme.test/acme/site.git';
      const created = await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'private-site', source });
      assert.equal(created.status, 201);
      const listed = await (await call('GET', '/v2/admin/domains', acme.adminKey)).text();
      const saved = await call('PATCH', '/v2/admin/domains/private-site', acme.adminKey, { source: 'https://***@git.acme.test/acme/site.git', supportContact: 'docs@acme.test' });
      assert.equal(saved.status, 200);
      for (const text of [await created.text(), listed, await saved.text()]) {
        assert.doesNotMatch(text, /glpat-secret-source|reader:/);
        assert.ok(text.includes('https://***@git.acme.test/acme/site.git'), text);
      }
      assert.equal((await services.tenants.getDomain('private-site'))?.source, source);
      assert.equal((await services.tenants.getDomain('private-site'))?.supportContact, 'docs@acme.test');
      assert.equal((await call('DELETE', '/v2/admin/domains/private-site', acme.adminKey)).status, 204);
    });
  });

  describe('domains', () => {
    it('creates, reads, lists, patches only the named fields and deletes', async () => {
      let res = await call('POST', '/v2/admin/domains', acme.adminKey, domain);
      assert.equal(res.status, 201);
      await conforms('/v2/admin/domains', 'post', res.clone());
      assert.deepEqual(((await res.json()) as { allowedOrigins: string[] }).allowedOrigins, ['https://docs.acme.test']);

      res = await call('GET', '/v2/admin/domains', acme.adminKey);
      await conforms('/v2/admin/domains', 'get', res.clone());
      assert.deepEqual(((await res.json()) as { domains: Array<{ id: string }> }).domains.map((d) => d.id), ['acme-docs']);

      res = await call('PATCH', '/v2/admin/domains/acme-docs', acme.adminKey, { branch: 'next' });
      assert.equal(res.status, 200);
      await conforms('/v2/admin/domains/{domainId}', 'patch', res.clone());
      const patched = (await res.json()) as Record<string, unknown>;
      assert.equal(patched.branch, 'next');
      assert.equal(patched.baseUrl, domain.baseUrl);
      assert.deepEqual(patched.allowedOrigins, ['https://docs.acme.test']);
      assert.equal(patched.supportContact, 'help@acme.test');

      res = await call('PATCH', '/v2/admin/domains/acme-docs', acme.adminKey, { allowedOrigins: null, supportContact: null });
      const cleared = (await res.json()) as Record<string, unknown>;
      assert.equal(cleared.allowedOrigins, undefined);
      assert.equal(cleared.supportContact, undefined);
      assert.equal(cleared.branch, 'next');

      res = await call('GET', '/v2/admin/domains/acme-docs', acme.adminKey);
      await conforms('/v2/admin/domains/{domainId}', 'get', res.clone());
      assert.equal(res.status, 200);

      assert.equal((await call('DELETE', '/v2/admin/domains/acme-docs', acme.adminKey)).status, 204);
      await expectError(await call('GET', '/v2/admin/domains/acme-docs', acme.adminKey), 404, 'not_found');
    });

    it('refuses a taken id, hides other organisations’ domains and unknown ids, and names bad fields', async () => {
      await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'acme-private' });
      await expectError(await call('POST', '/v2/admin/domains', globex.adminKey, { ...domain, id: 'acme-private', source: '/repos/globex-private' }), 409, 'id_taken');
      for (const suffix of ['', '/index']) {
        await expectError(await call('GET', `/v2/admin/domains/acme-private${suffix}`, globex.adminKey), 404, 'not_found');
        await expectError(await call('GET', `/v2/admin/domains/no-such${suffix}`, acme.adminKey), 404, 'not_found');
      }
      await expectError(await call('POST', '/v2/admin/domains/acme-private/index', globex.adminKey), 404, 'not_found');
      await expectError(await call('PATCH', '/v2/admin/domains/acme-private', globex.adminKey, { branch: 'x' }), 404, 'not_found');
      await expectError(await call('DELETE', '/v2/admin/domains/acme-private', globex.adminKey), 404, 'not_found');
      await expectError(await call('PATCH', '/v2/admin/domains/no-such', acme.adminKey, { branch: 'x' }), 404, 'not_found');
      await expectError(await call('DELETE', '/v2/admin/domains/no-such', acme.adminKey), 404, 'not_found');

      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'd2', baseUrl: 'not a url' }), 400, 'invalid_request', 'baseUrl');
      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'd3', allowedOrigins: ['ftp://x'] }), 400, 'invalid_request', 'allowedOrigins.0');
      await expectError(await call('PATCH', '/v2/admin/domains/acme-private', acme.adminKey, { includeHidden: 'yes' }), 400, 'invalid_request', 'includeHidden');
      await expectError(await call('PATCH', '/v2/admin/domains/acme-private', acme.adminKey, { id: 'renamed' }), 400, 'invalid_request', 'id');
    });

    it('starts re-indexing and reads its status; never indexed is 404', async () => {
      await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'to-index' });
      await expectError(await call('GET', '/v2/admin/domains/to-index/index', acme.adminKey), 404, 'not_found');
      let res = await call('POST', '/v2/admin/domains/to-index/index', acme.adminKey);
      assert.equal(res.status, 202);
      await conforms('/v2/admin/domains/{domainId}/index', 'post', res.clone());
      const started = (await res.json()) as { workflowId: string; runId: string };
      assert.equal(started.workflowId, 'index-to-index');
      res = await call('GET', '/v2/admin/domains/to-index/index', acme.adminKey);
      assert.equal(res.status, 200);
      await conforms('/v2/admin/domains/{domainId}/index', 'get', res.clone());
      const status = (await res.json()) as { runId: string; status: string; error: string | null };
      assert.equal(status.runId, started.runId);
      assert.equal(status.error, null, 'a running run has no error');
      // No worker polls this suite's task queue: the run waits, and a second start joins it.
      assert.equal(status.status, 'running');
      res = await call('POST', '/v2/admin/domains/to-index/index', acme.adminKey);
      assert.equal(((await res.json()) as { runId: string }).runId, started.runId);
      await services.temporal.workflow.getHandle(started.workflowId).terminate('stopped by an operator: the docs repository moved');
      // A run that did not complete says why.
      res = await call('GET', '/v2/admin/domains/to-index/index', acme.adminKey);
      await conforms('/v2/admin/domains/{domainId}/index', 'get', res.clone());
      const ended = (await res.json()) as { status: string; error: string | null };
      assert.equal(ended.status, 'terminated');
      assert.match(ended.error ?? '', /stopped by an operator: the docs repository moved/);
    });
  });

  describe('languages', () => {
    it("lists the languages a domain's language may be in, each accepted as one, to an admin key only", async () => {
      const res = await call('GET', '/v2/admin/languages', acme.adminKey);
      assert.equal(res.status, 200);
      await conforms('/v2/admin/languages', 'get', res.clone());
      const { languages } = (await res.json()) as { languages: string[] };
      assert.ok(languages.includes('en') && languages.includes('de'));
      assert.deepEqual(languages, [...languages].sort());
      await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'multilingual' });
      for (const language of languages) assert.equal((await call('PATCH', '/v2/admin/domains/multilingual', acme.adminKey, { language })).status, 200, language);
      await expectError(await call('GET', '/v2/admin/languages', acme.assistantKey), 403, 'forbidden');
    });
  });

  describe('keys', () => {
    it('creates a key shown once, lists it masked with its use, and revokes it', async () => {
      let res = await call('POST', '/v2/admin/keys', acme.adminKey, { kind: 'assistant' });
      assert.equal(res.status, 201);
      await conforms('/v2/admin/keys', 'post', res.clone());
      const created = (await res.json()) as { id: string; secret: string; prefix: string };
      assert.ok(created.secret.startsWith('quire_dsc_'));
      assert.ok(created.secret.startsWith(created.prefix.replace('…', '')));

      // The key works, and its first use is recorded.
      assert.equal((await fetch(`${url}/v2/admin/keys`, { headers: { Authorization: `Bearer ${created.secret}` } })).status, 403);
      res = await call('GET', '/v2/admin/keys', acme.adminKey);
      await conforms('/v2/admin/keys', 'get', res.clone());
      const text = await res.text();
      assert.ok(!text.includes(created.secret), 'a listing never shows a secret');
      const listed = (JSON.parse(text) as { keys: Array<{ id: string; lastUsedAt: string | null; revokedAt: string | null }> }).keys;
      const mine = listed.find((k) => k.id === created.id);
      assert.ok(mine?.lastUsedAt, 'last use recorded');
      assert.ok(listed.find((k) => k.id === acme.adminKeyId)?.lastUsedAt);
      assert.ok(!listed.some((k) => k.id === globex.adminKeyId), 'another organisation’s keys are not listed');

      await expectError(await call('DELETE', `/v2/admin/keys/${created.id}`, globex.adminKey), 404, 'not_found');
      await expectError(await call('DELETE', '/v2/admin/keys/key_0000000000000000', acme.adminKey), 404, 'not_found');
      res = await call('DELETE', `/v2/admin/keys/${created.id}`, acme.adminKey);
      assert.equal(res.status, 204);
      await conforms('/v2/admin/keys/{keyId}', 'delete', res);
      assert.equal((await fetch(`${url}/v2/admin/keys`, { headers: { Authorization: `Bearer ${created.secret}` } })).status, 401);
      const after = ((await (await call('GET', '/v2/admin/keys', acme.adminKey)).json()) as { keys: Array<{ id: string; revokedAt: string | null }> }).keys;
      assert.ok(after.find((k) => k.id === created.id)?.revokedAt);
    });

    it("refuses to revoke the organisation's last admin key in force (409), so nobody is locked out; with another, it goes", async () => {
      const { url: lone, acme: solo } = await twoOrgApi();
      const only = solo.adminKeyId;
      const refused = await fetch(`${lone}/v2/admin/keys/${only}`, { method: 'DELETE', headers: { Authorization: `Bearer ${solo.adminKey}` } });
      assert.equal(refused.status, 409);
      const body = (await refused.json()) as { code: string; error: string };
      assert.equal(body.code, 'conflict');
      assert.match(body.error, /last admin key in force: create another admin key first/);
      const other = (await (await fetch(`${lone}/v2/admin/keys`, { method: 'POST', headers: { Authorization: `Bearer ${solo.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'admin' }) })).json()) as { secret: string };
      assert.equal((await fetch(`${lone}/v2/admin/keys/${only}`, { method: 'DELETE', headers: { Authorization: `Bearer ${other.secret}` } })).status, 204);
    });

    it('lets a key expire: after its expiry it gets 401', async () => {
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      const res = await call('POST', '/v2/admin/keys', acme.adminKey, { kind: 'admin', expiresAt });
      const created = (await res.json()) as { secret: string; expiresAt: string };
      assert.equal(created.expiresAt, expiresAt);
      assert.equal((await call('GET', '/v2/admin/keys', created.secret)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
      await expectError(await call('GET', '/v2/admin/keys', created.secret), 401, 'unauthorized');
    });

    it('says what is wrong with a field in words a form can show beside it: a missing one is required, a rule without the field name repeated', async () => {
      const details = async (res: Response) => ((await res.json()) as { details: Array<{ path: string; message: string }> }).details;
      const missing = await details(await call('POST', '/v2/admin/domains', acme.adminKey, { source: '/srv/docs' }));
      assert.deepEqual(missing.find((d) => d.path === 'id')?.message, 'is required');
      assert.deepEqual(missing.find((d) => d.path === 'baseUrl')?.message, 'is required');
      const past = await details(await call('POST', '/v2/admin/keys', acme.adminKey, { kind: 'admin', expiresAt: '2001-01-01T00:00:00Z' }));
      assert.equal(past.find((d) => d.path === 'expiresAt')?.message, 'must be a date-time in the future');
    });

    it('answers bad bodies 400 naming the field', async () => {
      await expectError(await call('POST', '/v2/admin/keys', acme.adminKey, { kind: 'root' }), 400, 'invalid_request', 'kind');
      await expectError(await call('POST', '/v2/admin/keys', acme.adminKey, { kind: 'admin', expiresAt: 'tomorrow' }), 400, 'invalid_request', 'expiresAt');
      await expectError(await call('POST', '/v2/admin/keys', acme.adminKey, { kind: 'admin', expiresAt: '2001-01-01T00:00:00Z' }), 400, 'invalid_request', 'expiresAt');
    });
  });

  it('refuses an assistant key (403) and no key (401) on every admin route', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/v2/admin/projects'], ['POST', '/v2/admin/projects'], ['GET', '/v2/admin/projects/x'], ['PATCH', '/v2/admin/projects/x'],
      ['DELETE', '/v2/admin/projects/x'], ['GET', '/v2/admin/domains'], ['POST', '/v2/admin/domains'], ['GET', '/v2/admin/domains/x'],
      ['PATCH', '/v2/admin/domains/x'], ['DELETE', '/v2/admin/domains/x'], ['POST', '/v2/admin/domains/x/index'], ['GET', '/v2/admin/domains/x/index'],
      ['POST', '/v2/admin/domains/x/reader-erasure'],
      ['GET', '/v2/admin/keys'], ['POST', '/v2/admin/keys'], ['DELETE', '/v2/admin/keys/x'],
    ];
    for (const [method, path] of routes) {
      await expectError(await call(method, path, acme.assistantKey, method === 'POST' || method === 'PATCH' ? {} : undefined), 403, 'forbidden');
      await expectError(await fetch(url + path, { method }), 401, 'unauthorized');
    }
  });

  describe('operator', () => {
    const asOperator = (method: string, body?: unknown, token = OPERATOR_TOKEN) => call(method, '/v2/operator/orgs', token, body);

    it('creates organisations with limits and lists them with the operator token only', async () => {
      let res = await asOperator('POST', { id: 'initech', limits: { assistantPerOrgPerHour: 5 } });
      assert.equal(res.status, 201);
      await conforms('/v2/operator/orgs', 'post', res.clone());
      assert.deepEqual(((await res.json()) as { limits: unknown }).limits, { assistantPerOrgPerHour: 5 });
      res = await asOperator('POST', { id: 'initech', limits: { assistantPerOrgPerHour: 9 } });
      assert.equal(res.status, 200);
      assert.deepEqual((await services.tenants.getOrg('initech'))?.limits, { assistantPerOrgPerHour: 9 });
      res = await asOperator('GET');
      await conforms('/v2/operator/orgs', 'get', res.clone());
      assert.ok(((await res.json()) as { orgs: Array<{ id: string }> }).orgs.some((o) => o.id === 'initech'));

      await expectError(await asOperator('GET', undefined, acme.adminKey), 401, 'unauthorized');
      await expectError(await asOperator('POST', { id: 'sneaky' }, acme.adminKey), 401, 'unauthorized');
      await expectError(await fetch(`${url}/v2/operator/orgs`), 401, 'unauthorized');
      assert.equal(await services.tenants.getOrg('sneaky'), undefined);
      await expectError(await asOperator('POST', { id: 'Bad Id' }), 400, 'invalid_request', 'id');
      await expectError(await asOperator('POST', { id: 'ok', limits: { assistantPerOrgPerHour: -1 } }), 400, 'invalid_request', 'limits.assistantPerOrgPerHour');
    });

    it('does not exist without QUIRE_OPERATOR_TOKEN', async () => {
      const bare = await testServices({ withTemporal: false });
      const other = await serve(createApp(bare));
      const res = await fetch(`${other.url}/v2/operator/orgs`, { headers: { Authorization: 'Bearer anything' } });
      await expectError(res, 404, 'not_found');
    });
  });
});
