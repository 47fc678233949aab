import { Redis } from 'ioredis';

/**
 * Connects and waits until Redis answers. Commands fail fast while Redis is
 * down (no offline queue), so callers can answer 503 or fail open at once.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on('error', () => undefined); // reported through failing commands and /readyz
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at REDIS_URL: ${(err as Error).message}`, { cause: err });
  }
  return redis;
}
