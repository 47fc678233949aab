/**
 * On a shared worker (QUIRE_ORG_SCOPED_VARIABLES, the default with PostgreSQL) an organisation's
 * admin names only its own variables: no one signs with, or sends, another organisation's secret.
 */
import assert from 'node:assert/strict';
import { loadConfig } from '../../../core/config.js';
import { orgVariableProblem } from '../../../core/tenants/org-variables.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { seedOrg, twoOrgApi } from '../../support/services.js';

describe("an organisation's variables on a shared worker", function () {
  this.timeout(60_000);

  it('are those starting with its id in capitals; the setting is on with PostgreSQL, off on the embedded defaults', () => {
    const orgs = ['acme', 'acme-docs', 'globex'];
    assert.equal(orgVariableProblem('acme-docs', 'ACME_DOCS_GITHUB_TOKEN', orgs), undefined);
    for (const name of ['GITHUB_TOKEN', 'GLOBEX_HOOK_SECRET', 'ACME_DOCS_', 'ACMEDOCS_TOKEN']) assert.match(orgVariableProblem('acme-docs', name, orgs) ?? '', /start with ACME_DOCS_/, name);
    assert.equal(orgVariableProblem('acme', 'ACME_GITHUB_TOKEN', orgs), undefined);
    assert.match(orgVariableProblem('acme', 'ACME_DOCS_GITHUB_TOKEN', orgs) ?? '', /start with ACME_ and not with the prefix of another organisation/);
    assert.equal(loadConfig({}).orgScopedVariables, false);
    assert.equal(loadConfig({ QUIRE_DATABASE_URL: 'postgres://db.example:5432/quire' }).orgScopedVariables, true);
    assert.equal(loadConfig({ QUIRE_DATABASE_URL: 'postgres://db.example:5432/quire', QUIRE_ORG_SCOPED_VARIABLES: 'false' }).orgScopedVariables, false);
  });

  it("refuses another organisation's variable for a forge token or a webhook secret with 400 naming the field; keeps one the operator set", async () => {
    const { services, url, acme } = await twoOrgApi({ withTemporal: false, env: { QUIRE_ORG_SCOPED_VARIABLES: 'true' } });
    const call = bearerCaller(() => url);
    const project = { repository: 'https://github.com/acme/docs.git', forge: 'github' };
    await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'theirs', forgeTokenEnv: 'GLOBEX_GITHUB_TOKEN' }), 400, 'invalid_request', 'forgeTokenEnv');
    assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'ours', forgeTokenEnv: 'ACME_GITHUB_TOKEN' })).status, 201);
    await expectError(await call('POST', '/v2/agent/ours/webhooks', acme.adminKey, { url: 'https://hooks.acme.test/q', secretEnv: 'GLOBEX_HOOK_SECRET' }), 400, 'invalid_request', 'secretEnv');
    assert.equal((await call('POST', '/v2/agent/ours/webhooks', acme.adminKey, { url: 'https://hooks.acme.test/q', secretEnv: 'ACME_HOOK_SECRET' })).status, 201);
    // Set by the operator: a change of other fields keeps it; a change to another organisation's is refused.
    await services.tenants.putProject({ id: 'operator-set', orgId: 'acme', repository: 'https://github.com/acme/docs.git', branch: 'main', docsPath: '', forge: 'github', forgeTokenEnv: 'GITHUB_TOKEN', allowedModels: [] });
    assert.equal((await call('PATCH', '/v2/admin/projects/operator-set', acme.adminKey, { forgeTokenEnv: 'GITHUB_TOKEN', branch: 'next' })).status, 200);
    await expectError(await call('PATCH', '/v2/admin/projects/operator-set', acme.adminKey, { forgeTokenEnv: 'GLOBEX_GITHUB_TOKEN' }), 400, 'invalid_request', 'forgeTokenEnv');
  });

  it("refuses the variables of an organisation whose id begins with the caller's (ACME_DOCS_… is acme-docs', not acme's)", async () => {
    const { services, url, acme } = await twoOrgApi({ withTemporal: false, env: { QUIRE_ORG_SCOPED_VARIABLES: 'true' } });
    const docs = await seedOrg(services, 'acme-docs');
    const call = bearerCaller(() => url);
    const project = { repository: 'https://github.com/acme/docs.git', forge: 'github' };
    await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'borrowed', forgeTokenEnv: 'ACME_DOCS_GITHUB_TOKEN' }), 400, 'invalid_request', 'forgeTokenEnv');
    assert.equal((await call('POST', '/v2/admin/projects', acme.adminKey, { ...project, id: 'own', forgeTokenEnv: 'ACME_GITHUB_TOKEN' })).status, 201);
    await expectError(await call('PATCH', '/v2/admin/projects/own', acme.adminKey, { forgeTokenEnv: 'ACME_DOCS_GITHUB_TOKEN' }), 400, 'invalid_request', 'forgeTokenEnv');
    await expectError(await call('POST', '/v2/agent/own/webhooks', acme.adminKey, { url: 'https://hooks.acme.test/q', secretEnv: 'ACME_DOCS_HOOK_SECRET' }), 400, 'invalid_request', 'secretEnv');
    // Its own, to the organisation they belong to.
    assert.equal((await call('POST', '/v2/admin/projects', docs.adminKey, { ...project, id: 'docs-own', forgeTokenEnv: 'ACME_DOCS_GITHUB_TOKEN' })).status, 201);
    assert.equal((await call('POST', '/v2/agent/docs-own/webhooks', docs.adminKey, { url: 'https://hooks.acme.test/q', secretEnv: 'ACME_DOCS_HOOK_SECRET' })).status, 201);
  });

  it("refuses another organisation's variable for a domain's push secret, on create and on change, with 400 naming the field; keeps one the operator set", async () => {
    const { services, url, acme } = await twoOrgApi({ withTemporal: false, env: { QUIRE_ORG_SCOPED_VARIABLES: 'true' } });
    await seedOrg(services, 'acme-docs');
    const call = bearerCaller(() => url);
    const domain = { source: 'https://github.com/acme/site.git', baseUrl: 'https://docs.acme.test' };
    for (const pushSecretEnv of ['GLOBEX_PUSH_SECRET', 'ACME_DOCS_PUSH_SECRET', 'PUSH_SECRET'])
      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'pushed', pushSecretEnv }), 400, 'invalid_request', 'pushSecretEnv');
    // The webhook secret's rule on the name itself: capitals, and never one of Quire's own settings.
    for (const pushSecretEnv of ['acme_push_secret', 'QUIRE_OPERATOR_TOKEN'])
      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'pushed', pushSecretEnv }), 400, 'invalid_request', 'pushSecretEnv');
    const created = await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'pushed', pushSecretEnv: 'ACME_PUSH_SECRET' });
    assert.equal(created.status, 201);
    assert.equal(((await created.json()) as { pushSecretEnv?: string }).pushSecretEnv, 'ACME_PUSH_SECRET');
    await expectError(await call('PATCH', '/v2/admin/domains/pushed', acme.adminKey, { pushSecretEnv: 'GLOBEX_PUSH_SECRET' }), 400, 'invalid_request', 'pushSecretEnv');
    assert.equal((await call('PATCH', '/v2/admin/domains/pushed', acme.adminKey, { pushSecretEnv: null })).status, 200);
    assert.equal(((await (await call('GET', '/v2/admin/domains/pushed', acme.adminKey)).json()) as { pushSecretEnv?: string }).pushSecretEnv, undefined);
    // Set by the operator: a change of other fields keeps it.
    await services.tenants.putDomain({ id: 'operator-pushed', orgId: 'acme', source: domain.source, docsPath: '', baseUrl: domain.baseUrl, includeHidden: false, pushSecretEnv: 'DOCS_PUSH_SECRET' });
    assert.equal((await call('PATCH', '/v2/admin/domains/operator-pushed', acme.adminKey, { pushSecretEnv: 'DOCS_PUSH_SECRET', branch: 'next' })).status, 200);
  });
});
