import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createActivities } from '../../../activities/index.js';
import { apiServices } from '../../../api/build-services.js';
import { openPlatform } from '../../../core/platform/index.js';
import { createLogger } from '../../../core/logger.js';
import { indexDocs } from '../../../core/retrieval/index.js';
import { createMetrics } from '../../../core/telemetry/index.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { sharedPostgres } from '../../support/postgres.js';
import { sharedRedis } from '../../support/redis.js';
import { tempDir, testConfig } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';

/** A TCP relay in front of an engine: counts the connections a client opens through it and those still open. */
async function countingRelay(target: string) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const open = new Set<net.Socket>();
  let opened = 0;
  const server = net.createServer((client) => {
    opened += 1;
    open.add(client);
    const upstream = net.connect(port, host);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(async () => {
    for (const socket of open) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    opened: () => opened,
    open: () => open.size,
    /** Resolves once every connection through the relay is closed (or says how many stayed open). */
    drained: async () => {
      for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
      return open.size;
    },
  };
}

const hostPort = (url: string) => new URL(url).host;

describe('the platform: one composition root', function () {
  this.timeout(120_000);

  it('opens each engine once for everything a process builds on it, and closes every connection it opened', async () => {
    const model = await startFakeModel(() => ({ text: 'Nothing needs to change.' }), { embeddingDims: 16 });
    onSuiteEnd(model.close);
    const postgresUrl = await (await sharedPostgres()).createDatabase();
    const relays = {
      postgres: await countingRelay(hostPort(postgresUrl)),
      redis: await countingRelay(hostPort((await sharedRedis()).url)),
      temporal: await countingRelay((await temporalEnv()).address.replace('localhost', '127.0.0.1')),
      chat: await countingRelay(hostPort(model.baseUrl)),
      embeddings: await countingRelay(hostPort(model.baseUrl)),
    };
    const through = (url: string, relay: { address: string }) => Object.assign(new URL(url), { host: relay.address }).toString();
    const config = await testConfig({
      // One connection at most: a second pool would show as a second connection.
      QUIRE_DATABASE_URL: through(postgresUrl, relays.postgres),
      QUIRE_DATABASE_POOL_SIZE: '1',
      REDIS_URL: `redis://${relays.redis.address}`,
      TEMPORAL_ADDRESS: relays.temporal.address,
      QUIRE_MODEL: 'test-model',
      QUIRE_MODEL_BASE_URL: through(model.baseUrl, relays.chat),
      QUIRE_MODEL_API_KEY: 'sk-test-model',
      QUIRE_EMBEDDING_BASE_URL: through(model.baseUrl, relays.embeddings),
      QUIRE_EMBEDDING_MODEL: 'embed-small',
    });
    const platform = await openPlatform(config, { logger: createLogger('silent', 'test'), metrics: createMetrics({ orgLabel: false }), env: {}, temporal: 'client' });
    // What the API and the worker build on it; neither may open anything of its own.
    const api = apiServices(platform);
    createActivities(platform);

    // Every engine in use, several times, by the consumers that share it.
    for (const probe of Object.values(platform.probes)) await probe();
    for (const probe of Object.values(api.probes)) await probe();
    await platform.tenants.addOrg('acme');
    await platform.tenants.putDomain({ id: 'docs', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await platform.limiter.consume([{ name: 'assistant-key', subject: 'k1', points: 10, window: 'hour' }]);
    await platform.events.waitForEvents('job_none', 0, { timeoutMs: 100 });
    const docs = await tempDir();
    await fs.writeFile(path.join(docs, 'install.md'), '# Install\n\nRun the installer, then sign in.\n');
    await fs.writeFile(path.join(docs, 'keys.md'), '# API keys\n\nRevoke a key from the dashboard.\n');
    assert.ok(platform.embeddings.configured, 'an embeddings endpoint is configured');
    await indexDocs(platform.docIndex, 'docs', docs, { includeHidden: false, embedding: platform.embeddings.chunks });
    const hits = await api.docIndex.search('docs', { query: 'revoke a key', pageSize: 2 });
    assert.equal(hits[0]?.metadata.retrieval, 'hybrid', 'the query was embedded through the same embeddings port');
    assert.ok(platform.model.configured, 'a chat model is configured');
    for (let i = 0; i < 2; i++) await platform.model.port.chat({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], tools: [] });
    assert.ok(model.requests.some((r) => r.path.endsWith('/embeddings')) && model.requests.some((r) => r.path.endsWith('/chat/completions')));

    assert.deepEqual(
      { postgres: relays.postgres.opened(), redis: relays.redis.opened(), temporal: relays.temporal.opened() },
      // PostgreSQL: one pool (of size 1). Redis: the client, the subscriber that wakes event streams and the one that hears tenant changes. Temporal: one channel.
      { postgres: 1, redis: 3, temporal: 1 },
    );
    // Each model endpoint: one keep-alive pool (undici's holds up to two connections for sequential calls), whoever calls.
    for (const endpoint of ['chat', 'embeddings'] as const) assert.ok(relays[endpoint].open() >= 1 && relays[endpoint].open() <= 2, `${endpoint}: ${relays[endpoint].open()} open`);

    await platform.close();
    const stillOpen = Object.fromEntries(await Promise.all(Object.entries(relays).map(async ([name, relay]) => [name, await relay.drained()] as const)));
    assert.deepEqual(stillOpen, { postgres: 0, redis: 0, temporal: 0, chat: 0, embeddings: 0 }, 'close() closes every connection it opened');
    await assert.rejects(platform.database.ping(), 'the database is closed');
    await platform.close();
  });

  it('a platform that fails to open closes what it had already opened', async () => {
    const relay = await countingRelay(hostPort((await sharedRedis()).url));
    // Redis opens, then the worker's Temporal connection is refused: nothing may stay open.
    const config = await testConfig({ REDIS_URL: `redis://${relay.address}`, TEMPORAL_ADDRESS: '127.0.0.1:1' });
    await assert.rejects(
      openPlatform(config, { logger: createLogger('silent', 'test'), metrics: createMetrics({ orgLabel: false }), env: {}, temporal: 'worker' }),
      /cannot reach Temporal at 127\.0\.0\.1:1/,
    );
    assert.equal(relay.opened(), 1);
    assert.equal(await relay.drained(), 0);
  });

  it('a database it cannot open stops the start with where it is and why, never its credentials', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const open = async (env: Record<string, string>) => {
      const config = await testConfig(env);
      return openPlatform(config, { logger: createLogger('silent', 'test'), metrics: createMetrics({ orgLabel: false }), env: {}, temporal: 'client' });
    };
    await assert.rejects(open({ QUIRE_DATABASE_URL: `postgres://quire:s3cret-pw@127.0.0.1:${port}/quire` }), (err: Error) => {
      assert.equal(err.message, `cannot open the database at postgres://127.0.0.1:${port}/quire (QUIRE_DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${port}`);
      return true;
    });
    // A data directory that cannot be made: the SQLite file named, with the system's reason.
    const file = path.join(await tempDir(), 'a-file');
    await fs.writeFile(file, '');
    await assert.rejects(open({ QUIRE_DATA_DIR: path.join(file, 'data') }), (err: Error) => {
      assert.ok(err.message.startsWith(`cannot open the database at ${path.join(file, 'data', 'quire.db')}: ENOTDIR`), err.message);
      return true;
    });
  });
});
