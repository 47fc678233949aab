import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseTarget, type DatabaseTarget } from '../../../core/db/index.js';
import { createTenantStore, revokeOrgKey, TenantExistsError, UnknownTenantError, updateDomain, updateProject, type ProjectInput } from '../../../core/tenants/index.js';
import { DIALECTS, forEachDialect, freshTarget } from '../../support/databases.js';
import { sharedRedis } from '../../support/redis.js';
import { tempDir, testConfig, testPlatform } from '../../support/services.js';
import Router from '@koa/router';
import { createApp } from '../../../api/app.js';
import { requireKey } from '../../../api/auth.js';
import type { Feature } from '../../../api/services.js';
import { seedOrg, serve, testServices } from '../../support/services.js';

const probeFeature: Feature = (services) =>
  new Router().get('/whoami', requireKey(services.tenants, 'admin'), (ctx) => {
    ctx.body = { ok: true };
  });

forEachDialect('tenant store', (database) => {
  const open = async () => createTenantStore(database());
    it('keeps organisations, projects and domains, scoped to their organisation', async () => {
      const store = await open();
      await store.addOrg('acme');
      await store.addOrg('globex');
      await store.putProject({ id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
      const updated = await store.putProject({ id: 'docs', orgId: 'acme', repository: '/r2.git', branch: 'dev', docsPath: 'docs', forge: 'local', allowedModels: ['m'] });
      assert.equal(updated.repository, '/r2.git');
      await store.putDomain({ id: 'acme-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false });
      assert.equal((await store.getProject('docs'))?.branch, 'dev');
      assert.equal((await store.getDomain('acme-docs'))?.orgId, 'acme');
      assert.deepEqual((await store.listProjects('globex')).length, 0);
      await assert.rejects(
        store.putProject({ id: 'docs', orgId: 'globex', repository: '/x', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] }),
        (e: unknown) => e instanceof TenantExistsError && e.message === "project id 'docs' is taken: choose another id",
      );
      await assert.rejects(store.createKey('nobody', 'admin'), (e: unknown) => e instanceof UnknownTenantError && e.id === 'nobody');
      await assert.rejects(store.addOrg('Bad Name'), /invalid organisation id/);
    });

    it('authenticates live keys of the right kind only, stores no secret, and forgets revoked keys', async () => {
      const store = await open();
      await store.addOrg('acme');
      const admin = await store.createKey('acme', 'admin');
      const assistant = await store.createKey('acme', 'assistant');
      assert.equal((await store.authenticate(admin.secret))?.id, admin.record.id);
      assert.equal((await store.authenticate(assistant.secret))?.kind, 'assistant');
      assert.equal(await store.authenticate(admin.secret.slice(0, -1) + (admin.secret.endsWith('A') ? 'B' : 'A')), undefined);
      const listed = await store.listKeys('acme');
      assert.equal(listed.length, 2);
      assert.ok(!JSON.stringify(listed).includes(admin.secret), 'a listing never holds the secret');
      await store.revokeKey(admin.record.id);
      assert.equal(await store.authenticate(admin.secret), undefined);
      assert.ok((await store.listKeys('acme')).find((k) => k.id === admin.record.id)?.revokedAt);
      assert.equal((await store.authenticate(assistant.secret))?.id, assistant.record.id);
    });

    it('adds projects and domains only under a free id, and deletes them', async () => {
      const store = await open();
      await store.addOrg('acme');
      const project: ProjectInput = { id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] };
      await store.addProject(project);
      await assert.rejects(store.addProject({ ...project, repository: '/other.git' }), (e: unknown) => e instanceof TenantExistsError && e.kind === 'project');
      assert.equal((await store.getProject('docs'))?.repository, '/r.git');
      const domain = { id: 'acme-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false };
      await store.addDomain(domain);
      await assert.rejects(store.addDomain(domain), TenantExistsError);
      assert.equal(await store.deleteProject('docs'), true);
      assert.equal(await store.deleteProject('docs'), false);
      assert.equal(await store.deleteDomain('acme-docs'), true);
      assert.equal(await store.getDomain('acme-docs'), undefined);
    });

    it("keeps a deleted project's or domain's id for its organisation: it may create it again, another organisation may not", async () => {
      const store = await open();
      await store.addOrg('acme');
      await store.addOrg('globex');
      const project: ProjectInput = { id: 'shared', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] };
      const domain = { id: 'shared-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false };
      await store.addProject(project);
      await store.addDomain(domain);
      assert.equal(await store.deleteProject('shared'), true);
      assert.equal(await store.deleteDomain('shared-docs'), true);
      // What is kept by the id (jobs, pull requests, webhooks; index, analytics) is acme's: globex may not take it, by add or by put.
      await assert.rejects(store.addProject({ ...project, orgId: 'globex' }), (e: unknown) => e instanceof TenantExistsError && e.kind === 'project');
      await assert.rejects(store.putProject({ ...project, orgId: 'globex' }), TenantExistsError);
      await assert.rejects(store.addDomain({ ...domain, orgId: 'globex' }), (e: unknown) => e instanceof TenantExistsError && e.kind === 'domain');
      await assert.rejects(store.putDomain({ ...domain, orgId: 'globex' }), TenantExistsError);
      assert.equal(await store.getProject('shared'), undefined);
      // Until its index is removed, not even acme may create the domain again: it would not start empty.
      assert.deepEqual(await store.clearingDomains('acme'), ['shared-docs']);
      await assert.rejects(store.addDomain(domain), /domain 'shared-docs' is being deleted \(its index is not removed yet\)/);
      await assert.rejects(store.putDomain(domain), /is being deleted/);
      assert.equal(await store.domainCleared('shared-docs'), true);
      assert.equal(await store.domainCleared('shared-docs'), false, 'cleared once');
      assert.deepEqual(await store.clearingDomains('acme'), []);
      // Acme takes its ids again, and may delete them again.
      assert.equal((await store.addProject(project)).orgId, 'acme');
      assert.equal((await store.addDomain(domain)).orgId, 'acme');
      assert.equal(await store.deleteProject('shared'), true);
      assert.equal((await store.putProject(project)).orgId, 'acme');
    });

    it('creates one project and one domain of ten concurrent creates of one id; the others are told it exists', async () => {
      const store = await open();
      await store.addOrg('acme');
      const project: ProjectInput = { id: 'race', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] };
      const domain = { id: 'race-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false };
      const creates: Array<() => Promise<unknown>> = [() => store.addProject(project), () => store.addDomain(domain)];
      for (const create of creates) {
        const outcomes = await Promise.allSettled(Array.from({ length: 10 }, create));
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
        for (const o of outcomes) if (o.status === 'rejected') assert.ok(o.reason instanceof TenantExistsError, String(o.reason));
      }
    });

    it('applies changes of one project or domain made at once one after the other, losing none', async () => {
      const store = await open();
      await store.addOrg('acme');
      await store.addProject({ id: 'busy', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
      await store.addDomain({ id: 'busy-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false });
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          updateProject(store, 'acme', 'busy', { branch: `dev-${round}` }),
          updateProject(store, 'acme', 'busy', { docsPath: `docs-${round}` }),
          updateDomain(store, 'acme', 'busy-docs', { docsPath: `docs-${round}` }),
          updateDomain(store, 'acme', 'busy-docs', { supportContact: `help-${round}@d.test` }),
        ]);
        const project = await store.getProject('busy');
        assert.deepEqual([project?.branch, project?.docsPath], [`dev-${round}`, `docs-${round}`]);
        const domain = await store.getDomain('busy-docs');
        assert.deepEqual([domain?.docsPath, domain?.supportContact], [`docs-${round}`, `help-${round}@d.test`]);
      }
      await assert.rejects(store.updateProject('busy', 'globex', (p) => p), UnknownTenantError);
      await assert.rejects(
        store.updateProject('busy', 'acme', () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.equal((await store.getProject('busy'))?.branch, 'dev-4');
    });

    it("refuses to revoke an organisation's last admin key in force, even when two revocations come at once", async () => {
      const store = await open();
      await store.addOrg('acme');
      for (let round = 0; round < 5; round++) {
        const [a, b] = await Promise.all([store.createKey('acme', 'admin'), store.createKey('acme', 'admin')]);
        const outcomes = await Promise.allSettled([a, b].map((k) => revokeOrgKey(store, 'acme', k.record.id)));
        assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected'], `round ${round}`);
        const refused = outcomes.find((o) => o.status === 'rejected');
        assert.match(String(refused?.reason), /last admin key in force/);
        // The one left in force goes only once another exists: revoke it through the next round's keys.
        const left = (await store.listKeys('acme')).filter((k) => k.kind === 'admin' && !k.revokedAt);
        assert.equal(left.length, 1);
        if (round < 4) {
          const next = await store.createKey('acme', 'admin');
          await revokeOrgKey(store, 'acme', left[0]!.id);
          await store.revokeKey(next.record.id); // no guard: an operator's revocation
        }
      }
      await assert.rejects(store.revokeKey('key_unknown', { orgId: 'acme' }), UnknownTenantError);
    });

    it('keeps a key’s expiry, refuses it once past, and records its last use', async () => {
      const store = await open();
      await store.addOrg('acme');
      const past = await store.createKey('acme', 'admin', new Date(Date.now() - 1000).toISOString());
      const future = new Date(Date.now() + 3_600_000).toISOString();
      const live = await store.createKey('acme', 'admin', future);
      assert.equal(await store.authenticate(past.secret), undefined);
      const used = await store.authenticate(live.secret);
      assert.equal(used?.expiresAt, future);
      const listed = (await store.listKeys('acme')).find((k) => k.id === live.record.id);
      assert.equal(listed?.expiresAt, future);
      assert.ok(listed?.lastUsedAt, 'the first use is recorded');
      // Within the minute, a second use does not write again.
      await store.authenticate(live.secret);
      assert.equal((await store.listKeys('acme')).find((k) => k.id === live.record.id)?.lastUsedAt, listed.lastUsedAt);
    });

    it('finds a console session by its token while it lasts and its key is live', async () => {
      const store = await open();
      await store.addOrg('acme');
      const key = await store.createKey('acme', 'admin');
      const { token, session } = await store.openConsoleSession(key.record, 3_600_000);
      const found = await store.findConsoleSession(token);
      assert.equal(found?.orgId, 'acme');
      assert.equal(found?.key.id, key.record.id);
      assert.equal(found?.csrfToken, session.csrfToken);
      assert.equal(await store.findConsoleSession(token.slice(1)), undefined);

      const ended = await store.openConsoleSession(key.record, 3_600_000);
      await store.endConsoleSession(ended.token);
      assert.equal(await store.findConsoleSession(ended.token), undefined);

      const lapsed = await store.openConsoleSession(key.record, -1000);
      assert.equal(await store.findConsoleSession(lapsed.token), undefined, 'an expired session is not found');

      await store.revokeKey(key.record.id);
      assert.equal(await store.findConsoleSession(token), undefined, 'revoking the key ends its sessions');
    });

    it('deletes an organisation: its keys and sessions in the first step, nothing added after it, its record and id last', async () => {
      const store = await open();
      await store.addOrg('acme');
      await store.addOrg('globex');
      const admin = await store.createKey('acme', 'admin');
      const assistant = await store.createKey('acme', 'assistant');
      const revokedBefore = await store.createKey('acme', 'assistant');
      await store.revokeKey(revokedBefore.record.id);
      const { token } = await store.openConsoleSession(admin.record, 3_600_000);
      const project: ProjectInput = { id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] };
      const domain = { id: 'acme-docs', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false };
      await store.addProject(project);
      await store.addDomain(domain);
      const globexKey = await store.createKey('globex', 'admin');

      assert.deepEqual(await store.beginOrgDeletion('acme'), { revokedKeys: 2, endedSessions: 1 });
      assert.equal(await store.authenticate(admin.secret), undefined);
      assert.equal(await store.authenticate(assistant.secret), undefined);
      assert.equal(await store.findConsoleSession(token), undefined);
      assert.ok((await store.getOrg('acme'))?.deletingSince, 'marked deleting');
      assert.equal((await store.authenticate(globexKey.secret))?.orgId, 'globex', "another organisation's keys stay");
      // Nothing more can be added to it, and it cannot be re-created half-way.
      await assert.rejects(store.createKey('acme', 'admin'), /organisation 'acme' is being deleted/);
      await assert.rejects(store.addProject({ ...project, id: 'more' }), /being deleted/);
      await assert.rejects(store.putDomain({ ...domain, id: 'more-docs' }), /being deleted/);
      await assert.rejects(store.addOrg('acme'), /being deleted/);
      assert.deepEqual(await store.beginOrgDeletion('acme'), { revokedKeys: 0, endedSessions: 0 }, 'a repeat finds nothing more to revoke');
      await assert.rejects(store.finishOrgDeletion('acme'), /still has project docs, domain acme-docs/);
      await assert.rejects(store.finishOrgDeletion('globex'), /not being deleted/);

      await store.deleteProject('docs');
      await store.deleteDomain('acme-docs');
      await assert.rejects(store.finishOrgDeletion('acme'), /still has the index of domain acme-docs/);
      await store.domainCleared('acme-docs');
      await store.finishOrgDeletion('acme');
      assert.equal(await store.getOrg('acme'), undefined);
      assert.deepEqual(await store.listKeys('acme'), []);
      assert.deepEqual((await store.listOrgs()).map((o) => o.id), ['globex']);
      await assert.rejects(store.beginOrgDeletion('acme'), (e: unknown) => e instanceof UnknownTenantError && e.kind === 'organisation');
      await assert.rejects(store.addOrg('acme'), /organisation id 'acme' was deleted and stays retired/);
      assert.equal(await store.getOrg('acme'), undefined, 'the refused add created nothing');
      // What acme's project and domain kept stays theirs: another organisation may not take the ids.
      await assert.rejects(store.addProject({ ...project, orgId: 'globex' }), (e: unknown) => e instanceof TenantExistsError && e.kind === 'project');
      await assert.rejects(store.addDomain({ ...domain, orgId: 'globex' }), (e: unknown) => e instanceof TenantExistsError && e.kind === 'domain');
    });
});

/** The environment that points a process at the test's database: its data directory, and PostgreSQL's URL when the test runs there. */
function databaseEnv(dataDir: string, target: DatabaseTarget): Record<string, string> {
  return { QUIRE_DATA_DIR: dataDir, ...(target.dialect === 'postgres' ? { QUIRE_DATABASE_URL: target.url } : {}) };
}

/** Runs the real CLI in a child process against a data directory (and PostgreSQL when `env` names one). */
function quire(env: Record<string, string>, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../../infra/bin/quire.js'), ...args], {
      env: { PATH: process.env.PATH, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

for (const dialect of DIALECTS)
describe(`tenant store across processes (${dialect})`, function () {
  // Each case runs the real CLI a dozen times, a process each.
  this.timeout(180_000);
  /** A fresh database of the dialect, the environment that names it, and a reader in this process. */
  const world = async () => {
    const dir = await tempDir();
    const target = dialect === 'sqlite' ? databaseTarget(undefined, dir) : await freshTarget(dialect);
    const env = databaseEnv(dir, target);
    const { tenants } = await testPlatform(await testConfig(env));
    return { env, reader: tenants };
  };

  it('adds and lists projects and domains through the CLI, refusing bad options with exit 2 and a reason', async () => {
    const { env: dir, reader } = await world();
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    const project = await quire(dir, ['projects', 'add', 'acme/docs', '--repo', '/srv/docs.git', '--models', 'm-a, m-b']);
    assert.equal(project.code, 0, project.stderr);
    assert.match(project.stdout, /project acme\/docs ready/);
    assert.deepEqual((await reader.getProject('docs'))?.allowedModels, ['m-a', 'm-b']);
    const domain = await quire(dir, ['domains', 'add', 'acme/site', '--source', '/srv/site', '--support', 'help@example.com']);
    assert.equal(domain.code, 0, domain.stderr);
    assert.equal((await reader.getDomain('site'))?.baseUrl, 'https://site.example.com');
    assert.match((await quire(dir, ['projects', 'list'])).stdout, /^acme\/docs\tlocal\t\/srv\/docs\.git#main$/m);
    assert.match((await quire(dir, ['domains', 'list'])).stdout, /^acme\/site\t\/srv\/site\thttps:\/\/site\.example\.com\tany origin$/m);
    const origins = ['--allowed-origin', 'https://docs.acme.com/guide/', '--allowed-origin', 'http://localhost:8080'];
    const limited = await quire(dir, ['domains', 'add', 'acme/portal', '--source', '/srv/site', ...origins]);
    assert.equal(limited.code, 0, limited.stderr);
    assert.deepEqual((await reader.getDomain('portal'))?.allowedOrigins, ['https://docs.acme.com', 'http://localhost:8080'], 'kept as origins');
    assert.match((await quire(dir, ['domains', 'list'])).stdout, /^acme\/portal\t.*\thttps:\/\/docs\.acme\.com,http:\/\/localhost:8080$/m);

    const refusals: Array<[string[], RegExp]> = [
      [['projects', 'add', 'acme/other'], /--repo is required/],
      [['projects', 'add', 'acme/other', '--repo', 'x', '--forge', 'gitea'], /--forge must be local, github or gitlab/],
      [['projects', 'add', 'acme/other', '--repo', 'x', '--forge', 'gitlab'], /--token-env VAR is required with --forge gitlab/],
      [['projects', 'add', 'acme/other', '--repo', 'x', '--forge', 'github'], /--token-env VAR is required/],
      [['projects', 'add', 'no-slash', '--repo', 'x'], /expected ORG\/PROJECT/],
      [['projects', 'remove'], /quire projects add ORG\/PROJECT/],
      [['domains', 'add', 'acme/other', '--source', 'x', '--base-url', 'not a url'], /--base-url must be an http\(s\) URL/],
      [['domains', 'add', 'acme/other', '--source', 'x', '--allowed-origin', 'ftp://files.acme.com'], /--allowed-origin must be an http\(s\) URL/],
      // What the admin API refuses, the CLI refuses too (the same schemas): nothing empty, no javascript: links, no prose dates.
      [['projects', 'update', 'acme/docs', '--repo', ''], /--repo must not be empty/],
      [['projects', 'add', 'acme/other', '--repo', '/tmp', '--branch', ''], /--branch must not be empty/],
      [['projects', 'add', 'acme/other', '--repo', '/tmp', '--forge', 'github', '--token-env', 'not a var'], /--token-env must be an environment variable name/],
      [['domains', 'update', 'acme/site', '--source', ''], /--source must not be empty/],
      [['domains', 'add', 'acme/other', '--source', '/tmp', '--base-url', 'javascript:alert(1)'], /--base-url must be an http\(s\) URL/],
      [['domains', 'add', 'acme/other', '--source', '/tmp', '--base-url', 'docs.example.com:443'], /--base-url must be an http\(s\) URL/],
      [['keys', 'create', '--org', 'acme', '--kind', 'admin', '--expires', 'Dec 1 2099'], /--expires must be an ISO 8601 date-time/],
    ];
    for (const [args, reason] of refusals) {
      const r = await quire(dir, args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, reason);
    }
    assert.equal(await reader.getProject('other'), undefined, 'nothing written by a refused command');
    assert.equal((await reader.getProject('docs'))?.repository, '/srv/docs.git');
    assert.equal((await reader.getDomain('site'))?.source, '/srv/site');
    assert.equal((await reader.getDomain('other')), undefined);
  });

  it('loses no key when several CLI processes write at once, and a running reader sees them', async () => {
    const { env: dir, reader } = await world();
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    const runs = await Promise.all(Array.from({ length: 6 }, () => quire(dir, ['keys', 'create', '--org', 'acme', '--kind', 'admin'])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const secrets = runs.map((r) => r.stdout.trim().split('\n').at(-1)!);
    for (const s of secrets) assert.ok((await reader.authenticate(s)) !== undefined, 'the running reader sees every key');
    assert.equal((await reader.listKeys('acme')).length, 6);
  });

  /** A running service, an admin key it has just accepted, and the CLI's environment over the same database and Redis (if any). */
  const runningService = async (env: Record<string, string>) => {
    const target = dialect === 'sqlite' ? undefined : await freshTarget(dialect);
    const services = await testServices({ withTemporal: false, env: { ...env, ...(target?.dialect === 'postgres' ? { QUIRE_DATABASE_URL: target.url } : {}) } });
    const { adminKey, adminKeyId } = await seedOrg(services);
    const { url } = await serve(createApp(services, [probeFeature]));
    const call = () => fetch(url + '/whoami', { headers: { authorization: `Bearer ${adminKey}` } });
    assert.equal((await call()).status, 200);
    const cliEnv = { ...databaseEnv(services.config.dataDir, services.config.database), ...(env.REDIS_URL ? { REDIS_URL: env.REDIS_URL } : {}) };
    return { call, adminKeyId, cliEnv };
  };

  it('a key revoked with the CLI stops working in a running service at once, through Redis', async () => {
    // The service keeps what it read for a minute: only the CLI's announcement can end it sooner.
    const { call, adminKeyId, cliEnv } = await runningService({ REDIS_URL: (await sharedRedis()).url, QUIRE_TENANT_CACHE_TTL_MS: '60000' });
    const r = await quire(cliEnv, ['keys', 'revoke', adminKeyId]);
    assert.equal(r.code, 0, r.stderr);
    let res = await call();
    // The announcement travels on another connection than the CLI's exit: allow it a moment.
    for (const deadline = Date.now() + 5_000; res.status === 200 && Date.now() < deadline; await sleep(20)) res = await call();
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  });

  it('a key revoked with the CLI stops working in a running service without Redis once QUIRE_TENANT_CACHE_TTL_MS has passed', async () => {
    const { call, adminKeyId, cliEnv } = await runningService({ QUIRE_TENANT_CACHE_TTL_MS: '300' });
    const r = await quire(cliEnv, ['keys', 'revoke', adminKeyId]);
    assert.equal(r.code, 0, r.stderr);
    await sleep(300);
    assert.equal((await call()).status, 401);
  });

  it('says which organisation is unknown and what to do, with a non-zero exit', async () => {
    const { env: dir } = await world();
    const r = await quire(dir, ['keys', 'create', '--org', 'ghost', '--kind', 'admin']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown organisation 'ghost'; create it first with: quire orgs add ghost/);
    const usage = await quire(dir, ['keys', 'create', '--org', 'ghost', '--kind', 'root']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--kind must be admin or assistant/);
  });
});
