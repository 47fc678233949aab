import { Redis } from 'ioredis';
import { RedisAnalyticsStore } from '../../../core/analytics/index.js';
import { startRedis } from '../../support/redis.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { analyticsStoreContract } from '../../unit/analytics/store-contract.js';

describe('RedisAnalyticsStore on a real redis-server', () => {
  let redis: Redis;
  before(async () => {
    const server = await startRedis();
    redis = new Redis(server.url);
    onSuiteEnd(async () => redis.disconnect());
  });
  analyticsStoreContract(async () => {
    // Each case starts from an empty server, as each SQLite case starts from a new file.
    await redis.flushall();
    return new RedisAnalyticsStore(redis);
  });
});
