import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { UnavailableError } from '../../../core/errors.js';
import { createLogger } from '../../../core/logger.js';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { assistantWorld, SITE, userMessage, userMessageV1, type AssistantWorld, type WorldOptions } from './harness.js';

const body = () => ({ fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });

/** An assistant whose limits are counted in its own real redis-server (tenants and threads stay on files). */
async function limitedWorld(opts: WorldOptions & { policy?: 'open' | 'closed'; logs?: string[] } = {}): Promise<AssistantWorld & { redis: RedisServer }> {
  const redisServer = await startRedis();
  const policy = opts.policy ?? 'closed';
  const logs = opts.logs;
  const logger = logs
    ? createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (logs.push(chunk.toString()), done()) }))
    : undefined;
  const world = await assistantWorld({ ...opts, env: { ...opts.env, REDIS_URL: redisServer.url, QUIRE_RATE_LIMIT_ON_STORE_ERROR: policy }, ...(logger ? { logger } : {}) });
  return { ...world, redis: redisServer };
}

async function statusOf(res: Response): Promise<number> {
  await res.arrayBuffer();
  return res.status;
}

/** A limited world with captured logs that served one request, then lost its Redis. */
async function redisStoppedAfterOne(opts: WorldOptions & { policy: 'open' | 'closed' }) {
  const logs: string[] = [];
  const w = await limitedWorld({ ...opts, logs });
  assert.equal(await statusOf(await w.post('v2', body())), 200);
  await w.redis.stop();
  const statuses = async (n: number) => Promise.all(Array.from({ length: n }, async () => statusOf(await w.post('v2', body()))));
  return { w, logs, statuses };
}

describe('assistant rate limits', () => {
  it('the per-key monthly limit refuses with 429 and headers, and a refused request spends nothing', async () => {
    const w = await limitedWorld({ orgLimits: { assistantPerKeyPerMonth: 2, assistantPerOrgPerHour: 4 } });
    const ok = await w.post('v2', body());
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('ratelimit-limit'), '2');
    assert.equal(ok.headers.get('ratelimit-remaining'), '1');
    await ok.arrayBuffer();
    assert.equal(await statusOf(await w.post('v2', body())), 200);
    const refused = await w.post('v1', { fp: 'a', messages: [userMessageV1('How do I install the CLI?')] });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 3600, 'retry after the month ends');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.match(((await refused.json()) as { error: string }).error, /assistant-key/);
    // The org allows 4 an hour: 2 spent by key 1, none by the refusal, so key 2 gets exactly 2 more.
    const key2 = (await w.services.tenants.createKey('acme', 'assistant')).secret;
    assert.equal(await statusOf(await w.post('v2', body(), { key: key2 })), 200);
    assert.equal(await statusOf(await w.post('v2', body(), { key: key2 })), 200);
    const orgRefused = await w.post('v2', body(), { key: (await w.services.tenants.createKey('acme', 'assistant')).secret });
    assert.equal(orgRefused.status, 429);
    assert.match(((await orgRefused.json()) as { error: string }).error, /assistant-org/);
    await w.close();
  });

  it('the per-organisation hourly limit refuses every key of the org', async () => {
    const w = await limitedWorld({ orgLimits: { assistantPerOrgPerHour: 2 } });
    const key2 = (await w.services.tenants.createKey('acme', 'assistant')).secret;
    assert.equal(await statusOf(await w.post('v2', body())), 200);
    assert.equal(await statusOf(await w.post('v2', body(), { key: key2 })), 200);
    const refused = await w.post('v2', body(), { key: key2 });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) <= 3600);
    assert.match(((await refused.json()) as { error: string }).error, /assistant-org/);
    await w.close();
  });

  it('the per-IP daily limit counts the client address (X-Forwarded-For behind a trusted proxy)', async () => {
    const w = await limitedWorld({ orgLimits: { assistantPerIpPerDay: 1 }, env: { QUIRE_TRUST_PROXY: 'true' } });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    assert.equal(await statusOf(await w.post('v2', body(), from('203.0.113.7'))), 200);
    const refused = await w.post('v2', body(), from('203.0.113.7'));
    assert.equal(refused.status, 429);
    assert.match(((await refused.json()) as { error: string }).error, /assistant-ip/);
    assert.equal(await statusOf(await w.post('v2', body(), from('198.51.100.9'))), 200);
    await w.close();
  });

  it('believes only the address the trusted proxy appended: a client that writes its own X-Forwarded-For entries is still counted as itself', async () => {
    const w = await limitedWorld({ orgLimits: { assistantPerIpPerDay: 2 }, env: { QUIRE_TRUST_PROXY: 'true' } });
    // What the client sent, then the address the proxy saw, as nginx's $proxy_add_x_forwarded_for and load balancers append it.
    const spoofed = (own: string) => ({ headers: { 'x-forwarded-for': `${own}, 203.0.113.7` } });
    assert.equal(await statusOf(await w.post('v2', body(), spoofed('198.51.100.1'))), 200);
    assert.equal(await statusOf(await w.post('v2', body(), spoofed('198.51.100.2'))), 200);
    const refused = await w.post('v2', body(), spoofed('198.51.100.3'));
    assert.equal(refused.status, 429);
    await refused.arrayBuffer();
    await w.close();

    // Two proxies in front (QUIRE_TRUSTED_PROXY_HOPS=2): the entry the outer one appended is the client's.
    const two = await limitedWorld({ orgLimits: { assistantPerIpPerDay: 1 }, env: { QUIRE_TRUST_PROXY: 'true', QUIRE_TRUSTED_PROXY_HOPS: '2' } });
    const via = (own: string, client: string) => ({ headers: { 'x-forwarded-for': `${own}, ${client}, 10.0.0.5` } });
    assert.equal(await statusOf(await two.post('v2', body(), via('1.1.1.1', '203.0.113.7'))), 200);
    assert.equal(await statusOf(await two.post('v2', body(), via('2.2.2.2', '203.0.113.7'))), 429);
    assert.equal(await statusOf(await two.post('v2', body(), via('2.2.2.2', '203.0.113.8'))), 200);
    await two.close();
  });

  it("the per-IP limit is each organisation's own: another organisation's readers at the same address do not spend it", async () => {
    const w = await limitedWorld({ orgLimits: { assistantPerIpPerDay: 1 } });
    await w.services.tenants.addOrg('globex', { assistantPerIpPerDay: 1 });
    const globexKey = (await w.services.tenants.createKey('globex', 'assistant')).secret;
    await w.services.tenants.putDomain({ id: 'globex-docs', orgId: 'globex', source: '.', docsPath: '', baseUrl: 'https://docs.globex.example', includeHidden: false });
    await w.docIndex.applyChanges('globex-docs', { upserts: SITE, removals: [] });
    assert.equal(await statusOf(await w.post('v2', body())), 200);
    assert.equal(await statusOf(await w.post('v2', body())), 429);
    assert.equal(await statusOf(await w.post('v2', body(), { key: globexKey, domain: 'globex-docs' })), 200);
    await w.close();
  });

  it('is exact under concurrency: limit 100, 300 simultaneous requests, exactly 100 streams', async () => {
    const w = await limitedWorld({ orgLimits: { assistantPerOrgPerHour: 100 } });
    const statuses = await Promise.all(Array.from({ length: 300 }, async () => statusOf(await w.post('v2', body()))));
    assert.equal(statuses.filter((s) => s === 200).length, 100);
    assert.equal(statuses.filter((s) => s === 429).length, 200);
    await w.close();
  });

  it('Redis stopped mid-run, fail-closed: 503 and a logged warning', async () => {
    const { w, logs } = await redisStoppedAfterOne({ policy: 'closed' });
    const res = await w.post('v2', body());
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { code: string }).code, 'unavailable');
    assert.ok(logs.some((l) => /rate-limit store unavailable/.test(l)), 'the refusal is logged');
    await w.close();
  });

  it('Redis stopped mid-run, fail-open: the in-memory insurance limiter keeps serving and still counts; the switch is logged once', async () => {
    const { w, logs, statuses } = await redisStoppedAfterOne({ policy: 'open', orgLimits: { assistantPerOrgPerHour: 3 } });
    assert.deepEqual(await statuses(3), [200, 200, 200]);
    assert.equal(await statusOf(await w.post('v2', body())), 429, 'memory counts from zero after the switch and refuses the 4th');
    const switches = logs.filter((l) => /rate-limit store failed/.test(l));
    assert.equal(switches.length, 1, 'one warning for the switch, not one per request');
    assert.match(switches[0] ?? '', /"level":"warn"/);
    assert.match(switches[0] ?? '', /counting in memory/);
    await w.close();
  });

  it('fail-open: when Redis is back, counting returns to Redis with one info log', async () => {
    const { w, logs, statuses } = await redisStoppedAfterOne({ policy: 'open' });
    assert.deepEqual(await statuses(2), [200, 200]);
    await startRedis(w.redis.port);
    // The client reconnects on its own backoff (at most 2 s); requests keep being served meanwhile.
    // Waits for the recovery's log line (the test's timeout is the only clock).
    while (!logs.some((l) => /store is back/.test(l))) {
      assert.equal(await statusOf(await w.post('v2', body())), 200);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(await statusOf(await w.post('v2', body())), 200);
    assert.equal(logs.filter((l) => /store is back/.test(l)).length, 1);
    assert.match(logs.find((l) => /store is back/.test(l)) ?? '', /"level":"info"/);
    assert.equal(logs.filter((l) => /rate-limit store failed/.test(l)).length, 1);
    await w.close();
  });
});

for (const store of ['memory', 'redis'] as const) {
  describe(`assistant requests refused after counting spend nothing (limits in ${store})`, () => {
    const world = (opts: WorldOptions) => (store === 'redis' ? limitedWorld(opts) : assistantWorld(opts));
    const remaining = async (res: Response) => {
      await res.arrayBuffer();
      return res.headers.get('ratelimit-remaining');
    };

    it('an unknown thread (404) and retrieval down (503) give the unit back and carry no RateLimit headers; an answer spends', async () => {
      const w = await world({ orgLimits: { assistantPerKeyPerMonth: 5 } });
      assert.equal(await remaining(await w.post('v2', body())), '4');
      for (let i = 0; i < 3; i++) {
        const unknown = await w.post('v2', { ...body(), threadId: 'no-such-thread', threadKey: 'not-its-key' });
        assert.equal(unknown.status, 404);
        assert.equal(await remaining(unknown), null, 'a refusal tells of no unit spent');
      }
      assert.equal(await remaining(await w.post('v2', body())), '3', 'the second answer spends one more, and only one');

      // The index fails as a search engine that is down does: the answer is refused before its stream.
      const search = w.docIndex.search.bind(w.docIndex);
      w.docIndex.search = () => Promise.reject(new UnavailableError('search engine'));
      for (let i = 0; i < 3; i++) {
        const down = await w.post('v2', body());
        assert.equal(down.status, 503);
        assert.equal(await remaining(down), null);
      }
      w.docIndex.search = search;
      assert.equal(await remaining(await w.post('v2', body())), '2');
      await w.close();
    });
  });
}
