import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Platform } from '../../../core/platform/index.js';
import { deleteOrganisation } from '../../../core/deletion/index.js';
import { createTenantStore } from '../../../core/tenants/index.js';
import { databaseEnv, DIALECTS, freshTarget, type TestDialect } from '../../support/databases.js';
import { sharedRedis } from '../../support/redis.js';
import { testConfig, testPlatform } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';

/** Two platforms on one database, as two API processes open it: `a` changes tenants, `b` reads them. */
async function twoProcesses(dialect: TestDialect, env: { redis: boolean; ttlMsOfB: number }): Promise<{ a: Platform; b: Platform }> {
  const target = databaseEnv(await freshTarget(dialect));
  const redis: Record<string, string> = env.redis ? { REDIS_URL: (await sharedRedis()).url } : {};
  // A deletes organisations: a domain's delete stops its index run in Temporal.
  const a = await testPlatform(await testConfig({ ...target, ...redis, TEMPORAL_ADDRESS: (await temporalEnv()).address }));
  const b = await testPlatform(await testConfig({ ...target, ...redis, QUIRE_TENANT_CACHE_TTL_MS: String(env.ttlMsOfB) }));
  return { a, b };
}

/** Polls until `check` holds; fails after `ms`. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); await sleep(10)) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
  }
}

/**
 * Waits until B keeps what it reads (it has subscribed to the announcements): writes straight to the
 * database (`unannounced`) announce nothing, so B answers the same until it reads again.
 */
async function keptByB(b: Platform, unannounced: ReturnType<typeof createTenantStore>): Promise<void> {
  let probe = 0;
  await eventually('B keeps what it reads, once subscribed to the announcements', async () => {
    const before = await b.tenants.getProject('docs');
    await unannounced.putProject({ id: 'docs', orgId: 'acme', repository: '/r.git', branch: `probe-${++probe}`, docsPath: '', forge: 'local', allowedModels: [] });
    return (await b.tenants.getProject('docs'))?.branch === before?.branch;
  });
}

async function seed(a: Platform) {
  await a.tenants.addOrg('acme', { agentCreatesPerHour: 5 });
  await a.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
  await a.tenants.putDomain({ id: 'site', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://d.test', includeHidden: false });
  return a.tenants.createKey('acme', 'admin');
}

for (const dialect of DIALECTS)
describe(`tenant cache across processes (${dialect})`, function () {
  this.timeout(60_000);

  it('with Redis: a key revoked, a project deleted, a domain and limits changed in one process are seen in the other at once', async () => {
    // B keeps what it read for a minute: only the announcement through Redis can make it read again.
    const { a, b } = await twoProcesses(dialect, { redis: true, ttlMsOfB: 60_000 });
    const key = await seed(a);
    // Writes straight to the database announce nothing: B answers them only once it reads again.
    const unannounced = createTenantStore(a.database);
    await keptByB(b, unannounced);
    assert.equal((await b.tenants.authenticate(key.secret))?.id, key.record.id);
    assert.equal((await b.tenants.getOrg('acme'))?.limits?.agentCreatesPerHour, 5);
    assert.equal((await b.tenants.getDomain('site'))?.baseUrl, 'https://d.test');
    await unannounced.revokeKey(key.record.id);
    assert.equal((await b.tenants.authenticate(key.secret))?.id, key.record.id, 'B still holds the key it read');

    // The same revocation through A's platform is announced.
    await a.tenants.revokeKey(key.record.id);
    await eventually('the revoked key is refused in B', async () => (await b.tenants.authenticate(key.secret)) === undefined);
    await a.tenants.deleteProject('docs');
    await eventually('the deleted project is gone in B', async () => (await b.tenants.getProject('docs')) === undefined);
    await a.tenants.putDomain({ id: 'site', orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://new.test', includeHidden: false });
    await eventually('the changed domain reads new in B', async () => (await b.tenants.getDomain('site'))?.baseUrl === 'https://new.test');
    await a.tenants.addOrg('acme', { agentCreatesPerHour: 1 });
    await eventually('the changed limits read new in B', async () => (await b.tenants.getOrg('acme'))?.limits?.agentCreatesPerHour === 1);
  });

  it('with Redis: an organisation deleted in one process has its keys refused in the other at once', async () => {
    const { a, b } = await twoProcesses(dialect, { redis: true, ttlMsOfB: 60_000 });
    const key = await seed(a);
    const unannounced = createTenantStore(a.database);
    await keptByB(b, unannounced);
    assert.equal((await b.tenants.authenticate(key.secret))?.id, key.record.id, 'B holds the key it read');

    // The project has no automation: deleting it asks nothing of Temporal.
    await deleteOrganisation(a, 'acme');
    await eventually('the deleted organisation’s key is refused in B', async () => (await b.tenants.authenticate(key.secret)) === undefined);
    await eventually('its project and the organisation are gone in B', async () => (await b.tenants.getProject('docs')) === undefined && (await b.tenants.getOrg('acme')) === undefined);
  });

  it('a process sees its own changes at once, whatever its TTL', async () => {
    const { b } = await twoProcesses(dialect, { redis: false, ttlMsOfB: 60_000 });
    const key = await seed(b);
    assert.equal((await b.tenants.authenticate(key.secret))?.id, key.record.id);
    assert.equal((await b.tenants.getProject('docs'))?.branch, 'main');
    await b.tenants.revokeKey(key.record.id);
    await b.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/r.git', branch: 'next', docsPath: '', forge: 'local', allowedModels: [] });
    assert.equal(await b.tenants.authenticate(key.secret), undefined);
    assert.equal((await b.tenants.getProject('docs'))?.branch, 'next');
  });

  it('without Redis: another process’s revocation holds once the TTL has passed, and a new key works at once (no negative caching)', async () => {
    const { a, b } = await twoProcesses(dialect, { redis: false, ttlMsOfB: 300 });
    const key = await seed(a);
    assert.equal((await b.tenants.authenticate(key.secret))?.id, key.record.id);
    await a.tenants.revokeKey(key.record.id);
    await sleep(300);
    assert.equal(await b.tenants.authenticate(key.secret), undefined, 'refused once the TTL has passed');

    // A secret B was asked for before it existed is not remembered as unknown.
    const later = await a.tenants.createKey('acme', 'assistant');
    await a.tenants.revokeKey(later.record.id);
    assert.equal(await b.tenants.authenticate(later.secret), undefined);
    const fresh = await a.tenants.createKey('acme', 'admin');
    assert.equal((await b.tenants.authenticate(fresh.secret))?.id, fresh.record.id);
  });

  it('records a key’s last use without waiting for the write, once a minute', async () => {
    const { a, b } = await twoProcesses(dialect, { redis: false, ttlMsOfB: 60_000 });
    const key = await seed(a);
    const used = await b.tenants.authenticate(key.secret);
    assert.ok(used?.lastUsedAt);
    await eventually('the use is written', async () => (await a.tenants.listKeys('acme'))[0]?.lastUsedAt === used.lastUsedAt);
    assert.equal((await b.tenants.authenticate(key.secret))?.lastUsedAt, used.lastUsedAt, 'the second use within the minute keeps the first');
  });
});
