import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ScheduleNotFoundError } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { createAutomation } from '../../../core/automations/index.js';
import { deleteOrganisation, OrgDeletionIncompleteError } from '../../../core/deletion/index.js';
import { UnknownTenantError } from '../../../core/tenants/index.js';
import { applySeedFile, SeedFileError } from '../../../core/tenants/seed-file.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { databaseEnv, DIALECTS, freshTarget } from '../../support/databases.js';
import { freePort } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, tempDir, testConfig, testServices, type SeededOrg } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';

const OPERATOR_TOKEN = 'operator-test-token-0123456789';

interface Deleted {
  id: string;
  revokedKeys: number;
  endedSessions: number;
  projects: string[];
  domains: string[];
}

/** An organisation with keys, a signed-in console, a project and a domain. */
async function populatedOrg(services: ApiServices, url: string, orgId: string): Promise<SeededOrg & { cookie: string }> {
  const org = await seedOrg(services, orgId);
  await services.tenants.putProject({ id: `${orgId}-docs`, orgId, repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
  await services.tenants.putDomain({ id: `${orgId}-site`, orgId, source: '/srv/site', docsPath: '', baseUrl: 'https://docs.test', includeHidden: false });
  const signIn = await fetch(`${url}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: org.adminKey }) });
  assert.equal(signIn.status, 201);
  return { ...org, cookie: signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '' };
}

describe('deleting an organisation (operator API)', function () {
  this.timeout(120_000);
  let url = '';
  let services: ApiServices;
  const call = bearerCaller(() => url);
  const deleteOrg = (id: string, token = OPERATOR_TOKEN) => call('DELETE', `/v2/operator/orgs/${id}`, token);

  before(async () => {
    services = await testServices({ env: { QUIRE_OPERATOR_TOKEN: OPERATOR_TOKEN }, taskQueue: `org-deletion-${process.pid}` });
    ({ url } = await serve(createApp(services)));
  });

  it('revokes every credential, deletes its projects (with their schedules) and domains, and retires its id', async () => {
    const umbrella = await populatedOrg(services, url, 'umbrella');
    const other = await seedOrg(services, 'bystander');
    const automation = await createAutomation(services, 'umbrella-docs', { prompt: 'Check the links', cron: '@yearly', paused: true });

    await expectError(await deleteOrg('umbrella', umbrella.adminKey), 401, 'unauthorized');
    assert.ok(await services.tenants.getOrg('umbrella'), "an organisation's own key deletes nothing");

    const res = await deleteOrg('umbrella');
    assert.equal(res.status, 200);
    await conforms('/v2/operator/orgs/{orgId}', 'delete', res.clone());
    assert.deepEqual(await res.json(), { id: 'umbrella', revokedKeys: 2, endedSessions: 1, projects: ['umbrella-docs'], domains: ['umbrella-site'] } satisfies Deleted);

    // Every kind of its credentials is refused: the admin key, the assistant key, the console's cookie.
    await expectError(await call('GET', '/v2/admin/projects', umbrella.adminKey), 401, 'unauthorized');
    await expectError(await call('GET', '/v2/admin/projects', umbrella.assistantKey), 401, 'unauthorized');
    await expectError(await fetch(`${url}/console/session`, { headers: { Cookie: umbrella.cookie } }), 401, 'not_signed_in');
    assert.equal((await call('GET', '/v2/admin/projects', other.adminKey)).status, 200, "another organisation's keys still work");

    await assert.rejects(services.temporal.schedule.getHandle(automation.scheduleId).describe(), ScheduleNotFoundError);
    assert.deepEqual(await services.automations.list('umbrella-docs'), []);
    assert.equal(await services.tenants.getProject('umbrella-docs'), undefined);
    assert.equal(await services.tenants.getDomain('umbrella-site'), undefined);

    // Gone: a repeat and an unknown id are 404, and the id cannot be taken again, nor its projects' and domains' ids.
    await expectError(await deleteOrg('umbrella'), 404, 'not_found');
    await expectError(await deleteOrg('never-was'), 404, 'not_found');
    await expectError(await call('POST', '/v2/operator/orgs', OPERATOR_TOKEN, { id: 'umbrella' }), 409, 'conflict');
    const listed = (await (await call('GET', '/v2/operator/orgs', OPERATOR_TOKEN)).json()) as { orgs: Array<{ id: string }> };
    assert.ok(!listed.orgs.some((o) => o.id === 'umbrella'));
    await expectError(await call('POST', '/v2/admin/projects', other.adminKey, { id: 'umbrella-docs', repository: 'https://git.test/d.git' }), 409, 'id_taken');
    await expectError(await call('POST', '/v2/admin/domains', other.adminKey, { id: 'umbrella-site', source: 'https://git.test/d.git', baseUrl: 'https://d.test' }), 409, 'id_taken');
  });

  it('deletes an organisation with nothing under it; without the operator token it is 401', async () => {
    await services.tenants.addOrg('empty-org');
    await expectError(await call('DELETE', '/v2/operator/orgs/empty-org', 'not-the-token'), 401, 'unauthorized');
    await expectError(await fetch(`${url}/v2/operator/orgs/empty-org`, { method: 'DELETE' }), 401, 'unauthorized');
    const res = await deleteOrg('empty-org');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { id: 'empty-org', revokedKeys: 0, endedSessions: 0, projects: [], domains: [] } satisfies Deleted);
  });

  it('with Temporal down: revokes the keys at once, answers 503 with Retry-After naming what is left, and a repeat finishes it', async () => {
    const dataDir = await tempDir();
    const env = { QUIRE_DATA_DIR: dataDir, QUIRE_OPERATOR_TOKEN: OPERATOR_TOKEN, QUIRE_TENANT_CACHE_TTL_MS: '0' };
    // Nothing listens on this port: every call to Temporal fails to connect.
    const down = await servicesOn(await testConfig({ ...env, TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` }));
    const downUrl = (await serve(createApp(down))).url;
    const acme = await populatedOrg(down, downUrl, 'acme');
    // Stored as creating it left it; its schedule cannot be reached while Temporal is down.
    await down.automations.create({ id: 'auto-1', projectId: 'acme-docs', cron: '@yearly', interval: null, timezone: 'UTC', prompt: 'Check', model: null, asDraft: false, createdAt: new Date().toISOString() });

    const res = await fetch(`${downUrl}/v2/operator/orgs/acme`, { method: 'DELETE', headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
    assert.equal(res.status, 503);
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
    await conforms('/v2/operator/orgs/{orgId}', 'delete', res.clone());
    const body = (await res.json()) as { code: string; error: string };
    assert.equal(body.code, 'unavailable');
    assert.match(body.error, /organisation 'acme' is partly deleted: its keys are revoked and its console sessions ended, but project acme-docs, domain acme-site could not be deleted yet; delete it again/);

    // Its credentials are refused already; its domain's record is gone (its index waits for Temporal to stop its run); the listing says it is unfinished.
    const downCall = bearerCaller(() => downUrl);
    await expectError(await downCall('GET', '/v2/admin/projects', acme.adminKey), 401, 'unauthorized');
    await expectError(await fetch(`${downUrl}/console/session`, { headers: { Cookie: acme.cookie } }), 401, 'not_signed_in');
    assert.equal(await down.tenants.getDomain('acme-site'), undefined);
    assert.ok(await down.tenants.getProject('acme-docs'));
    const listed = (await (await downCall('GET', '/v2/operator/orgs', OPERATOR_TOKEN)).json()) as { orgs: Array<{ id: string; deletingSince?: string }> };
    assert.ok(listed.orgs.find((o) => o.id === 'acme')?.deletingSince);
    await expectError(await downCall('POST', '/v2/operator/orgs', OPERATOR_TOKEN, { id: 'acme' }), 409, 'conflict');

    // Temporal back (another API process on the same database): the same request finishes it.
    const up = await servicesOn(await testConfig({ ...env, TEMPORAL_ADDRESS: (await temporalEnv()).address }));
    const upUrl = (await serve(createApp(up))).url;
    const again = await fetch(`${upUrl}/v2/operator/orgs/acme`, { method: 'DELETE', headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), { id: 'acme', revokedKeys: 0, endedSessions: 0, projects: ['acme-docs'], domains: ['acme-site'] } satisfies Deleted);
    assert.equal(await up.tenants.getOrg('acme'), undefined);
    assert.deepEqual(await up.automations.list('acme-docs'), []);
  });

  it('a seed file that still declares a deleted organisation is refused at start-up, naming the file and the organisation', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'seed.yaml');
    await fs.writeFile(file, 'organisations:\n  - id: leaving\n');
    await applySeedFile(file, services.tenants);
    await deleteOrganisation(services, 'leaving');
    await assert.rejects(
      applySeedFile(file, services.tenants),
      (e: unknown) => e instanceof SeedFileError && e.message.includes(`seed file ${file}: organisations: leaving: organisation id 'leaving' was deleted`) && /remove it from the file$/.test(e.message),
    );
  });

  it('finishes a domain another deletion left between its record and its index, which its first listing missed', async () => {
    const services = await servicesOn(await testConfig({ ...databaseEnv(await freshTarget('sqlite')), TEMPORAL_ADDRESS: (await temporalEnv()).address }));
    await seedOrg(services, 'between');
    await services.tenants.putDomain({ id: 'd-between', orgId: 'between', source: '/srv/site', docsPath: '', baseUrl: 'https://docs.test', includeHidden: false });
    // A deletion running at once took the domain's record, and has not removed its index yet...
    await services.tenants.deleteDomain('d-between');
    // ...when this one listed what was left to clear (as if just before that deletion's step).
    let listings = 0;
    const tenants = { ...services.tenants, clearingDomains: async (orgId: string) => (listings++ === 0 ? [] : services.tenants.clearingDomains(orgId)) };
    const deleted = await deleteOrganisation({ ...services, tenants }, 'between');
    assert.deepEqual(deleted.domains, ['d-between'], 'a second round cleared it');
    assert.equal(await services.tenants.getOrg('between'), undefined);
  });

  for (const dialect of DIALECTS)
    it(`two deletions of one organisation at once (${dialect}): together they delete everything, and neither reports a failure`, async () => {
      const both = await servicesOn(await testConfig({ ...databaseEnv(await freshTarget(dialect)), TEMPORAL_ADDRESS: (await temporalEnv()).address }));
      await seedOrg(both, 'twice');
      const ids = ['one', 'two', 'three'];
      for (const id of ids) {
        await both.tenants.putProject({ id: `p-${id}`, orgId: 'twice', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
        await both.tenants.putDomain({ id: `d-${id}`, orgId: 'twice', source: '/srv/site', docsPath: '', baseUrl: 'https://docs.test', includeHidden: false });
      }
      const results = await Promise.allSettled([deleteOrganisation(both, 'twice'), deleteOrganisation(both, 'twice')]);
      for (const r of results)
        if (r.status === 'rejected') assert.ok(r.reason instanceof UnknownTenantError && !(r.reason instanceof OrgDeletionIncompleteError), `only "already gone": ${String(r.reason)}`);
      const done = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      assert.ok(done.length > 0);
      assert.deepEqual(done.flatMap((d) => d.projects).sort(), ids.map((id) => `p-${id}`).sort());
      assert.deepEqual(done.flatMap((d) => d.domains).sort(), ids.map((id) => `d-${id}`).sort());
      assert.equal(done.reduce((n, d) => n + d.revokedKeys, 0), 2, 'each key revoked once');
      assert.equal(await both.tenants.getOrg('twice'), undefined);
    });
});
