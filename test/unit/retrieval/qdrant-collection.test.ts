import assert from 'node:assert/strict';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { testConfig, testPlatform } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

// The fake speaks Qdrant's REST protocol (no Qdrant can run here), so the real client runs unchanged.
describe('Qdrant store: the collection and the server version', () => {
  it('several processes creating the collection at once all succeed: 409 Conflict means it exists', async () => {
    const qdrant = await startFakeQdrant({ existsBarrier: 4 });
    onSuiteEnd(qdrant.close);
    const config = await testConfig({ QDRANT_URL: qdrant.url });
    // One index per process: each checks, finds no collection, and creates it.
    const indexes = await Promise.all(Array.from({ length: 4 }, async () => (await testPlatform(config)).docIndex));
    const results = await Promise.allSettled(indexes.map((ix) => ix.search('docs', { query: 'quickstart', pageSize: 5 })));
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const creates = qdrant.requests.filter((r) => r.method === 'PUT' && r.path === '/collections/quire_chunks');
    assert.equal(creates.length, 4, 'all four raced to create it; three were answered 409');
    assert.equal(qdrant.collections.size, 1);
  });

  it('checks the server version, and warns when the server is more than one minor version away', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    let warned: () => void = () => undefined;
    const gotWarning = new Promise<void>((resolve) => (warned = resolve));
    console.warn = (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
      warned();
    };
    try {
      const matching = await startFakeQdrant();
      onSuiteEnd(matching.close);
      await (await testPlatform(await testConfig({ QDRANT_URL: matching.url }))).docIndex.search('docs', { query: 'quickstart', pageSize: 5 });
      assert.ok(matching.requests.some((r) => r.method === 'GET' && r.path === '/'), 'the client asked the server its version');
      assert.deepEqual(warnings, [], 'the image docker-compose.yml runs is compatible');

      const old = await startFakeQdrant({ version: '1.15.1' });
      onSuiteEnd(old.close);
      await testPlatform(await testConfig({ QDRANT_URL: old.url }));
      await gotWarning;
      assert.match(warnings[0] ?? '', /incompatible with server version 1\.15\.1/);
    } finally {
      console.warn = warn;
    }
  });
});
