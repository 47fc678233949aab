import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { DOMAIN_POLL_WORKFLOW, domainPollWorkflowId } from '../../../core/contracts/domain-poll.js';
import { indexWorkflowId } from '../../../core/contracts/index-domain.js';
import { DOMAIN_ID } from '../../../core/contracts/search-attributes.js';
import { startIndexRun } from '../../../core/index-runs/index.js';
import type { IndexedPage } from '../../../core/retrieval/index.js';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { sharedRedis } from '../../support/redis.js';
import { seedOrg, serve, servicesOn, tempDir, testConfig } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { leftInTemporal } from '../../support/workflow-runs.js';

/** One page of old words, as an index run writes it. */
const oldPage = (): IndexedPage => ({
  path: '/old-guide',
  title: 'Old guide',
  hash: 'h1',
  content: 'Configure the obsolete frobnicator.',
  groups: [],
  chunks: [{ path: '/old-guide', anchor: '', title: 'Old guide', breadcrumb: ['Old guide'], content: 'Configure the obsolete frobnicator.', headings: '', groups: [] }],
});

/** The domains an embedded index keeps in this process's memory (what a delete must free). */
const keptInMemory = (services: ApiServices): Map<string, unknown> => (services.docIndex as unknown as { domains: Map<string, unknown> }).domains;

/** Waits (bounded by the test's timeout) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(10);
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);

describe('deleting a domain removes its index', function () {
  this.timeout(180_000);

  it('embedded: its files, checkout and every process’s memory go; created again with the same id it starts empty', async () => {
    const dataDir = await tempDir();
    const env = { QUIRE_DATA_DIR: dataDir, REDIS_URL: (await sharedRedis()).url, TEMPORAL_ADDRESS: (await temporalEnv()).address, QUIRE_TENANT_CACHE_TTL_MS: '60000' };
    // Two API processes on one data directory and database, as two replicas.
    const a = await servicesOn(await testConfig(env));
    const b = await servicesOn(await testConfig(env));
    const urlA = (await serve(createApp(a))).url;
    const urlB = (await serve(createApp(b))).url;
    const org = await seedOrg(a, 'acme');
    const admin = bearerCaller(() => urlA);
    const site = { id: 'gone-site', source: 'https://git.test/docs.git', baseUrl: 'https://docs.test' };
    assert.equal((await admin('POST', '/v2/admin/domains', org.adminKey, site)).status, 201);
    await a.docIndex.applyChanges('gone-site', { upserts: [oldPage()], removals: [] });
    const checkout = path.join(dataDir, 'sources', 'gone-site');
    await fs.mkdir(checkout, { recursive: true });
    await fs.writeFile(path.join(checkout, 'index.mdx'), '# Old');
    const search = (url: string) => bearerCaller(() => url)('POST', '/discovery/v1/search/gone-site', org.assistantKey, { query: 'frobnicator' });
    for (const url of [urlA, urlB]) assert.equal(((await (await search(url)).json()) as unknown[]).length, 1, 'both processes serve the old page');
    assert.ok(keptInMemory(b).has('gone-site'), 'B keeps the index it searched');
    // Its runs in Temporal: an index run and a poll, open on a queue no worker polls.
    const nowhere = `nowhere-${randomUUID()}`;
    await startIndexRun(a.temporal, nowhere, 'gone-site');
    const poll = `${domainPollWorkflowId('gone-site')}-2020-01-01T00:00:00Z`;
    await a.temporal.workflow.start(DOMAIN_POLL_WORKFLOW, { taskQueue: nowhere, workflowId: poll, args: [{ domainId: 'gone-site' }], typedSearchAttributes: [{ key: DOMAIN_ID, value: 'gone-site' }] });

    assert.equal((await admin('DELETE', '/v2/admin/domains/gone-site', org.adminKey)).status, 204);
    assert.deepEqual(await leftInTemporal(a.temporal, [indexWorkflowId('gone-site'), poll]), { described: [], listed: [] }, 'its runs are deleted from Temporal');
    const files = (await fs.readdir(path.join(dataDir, 'index'))).filter((f) => f.startsWith('gone-site'));
    assert.deepEqual(files, [], 'no index file of the domain is left');
    assert.equal(await exists(checkout), false, 'its checkout is gone');
    assert.equal(keptInMemory(a).has('gone-site'), false);
    // B read nothing since: only the announcement can make it forget.
    await until(() => !keptInMemory(b).has('gone-site'));
    await expectError(await search(urlB), 404, 'not_found');

    assert.equal((await admin('POST', '/v2/admin/domains', org.adminKey, site)).status, 201);
    for (const url of [urlA, urlB]) assert.deepEqual(await (await search(url)).json(), [], 'the domain created again starts empty');
    // A repeat of a finished delete, and an unknown domain, are 404.
    assert.equal((await admin('DELETE', '/v2/admin/domains/gone-site', org.adminKey)).status, 204);
    await expectError(await admin('DELETE', '/v2/admin/domains/gone-site', org.adminKey), 404, 'not_found');
  });

  it('Qdrant: its points are deleted, and with Qdrant down the delete answers 503 and a repeat finishes it', async () => {
    let qdrant = await startFakeQdrant();
    const env = { QDRANT_URL: qdrant.url, TEMPORAL_ADDRESS: (await temporalEnv()).address, QUIRE_TENANT_CACHE_TTL_MS: '0' };
    const services = await servicesOn(await testConfig(env));
    const { url } = await serve(createApp(services));
    const org = await seedOrg(services, 'acme');
    const admin = bearerCaller(() => url);
    for (const id of ['q-site', 'kept-site']) {
      assert.equal((await admin('POST', '/v2/admin/domains', org.adminKey, { id, source: 'https://git.test/docs.git', baseUrl: 'https://docs.test' })).status, 201);
      await services.docIndex.applyChanges(id, { upserts: [oldPage()], removals: [] });
    }
    const domainsHeld = () => [...[...qdrant.collections.values()][0]!.points.values()].map((p) => p.payload.domain);

    assert.equal((await admin('DELETE', '/v2/admin/domains/q-site', org.adminKey)).status, 204);
    const deletes = qdrant.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/points/delete'));
    assert.deepEqual(deletes.at(-1)?.body, { filter: { must: [{ key: 'domain', match: { value: 'q-site' } }] } });
    assert.ok(!domainsHeld().includes('q-site') && domainsHeld().includes('kept-site'), "only the deleted domain's points go");

    // Qdrant down: the record goes, the index stays, the id is refused until a repeat has removed it.
    const port = new URL(qdrant.url).port;
    await qdrant.close();
    const res = await admin('DELETE', '/v2/admin/domains/kept-site', org.adminKey);
    assert.equal(res.status, 503);
    await expectError(await admin('GET', '/v2/admin/domains/kept-site', org.adminKey), 404, 'not_found');
    await expectError(await admin('POST', '/v2/admin/domains', org.adminKey, { id: 'kept-site', source: 'https://git.test/docs.git', baseUrl: 'https://docs.test' }), 409, 'conflict');
    qdrant = await startFakeQdrant({ port: Number(port) });
    assert.equal((await admin('DELETE', '/v2/admin/domains/kept-site', org.adminKey)).status, 204);
    assert.ok(qdrant.requests.some((r) => r.path.endsWith('/points/delete')));
    assert.equal((await admin('POST', '/v2/admin/domains', org.adminKey, { id: 'kept-site', source: 'https://git.test/docs.git', baseUrl: 'https://docs.test' })).status, 201);
  });
});
