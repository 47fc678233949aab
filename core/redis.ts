import { Redis } from 'ioredis';

/** How long a start waits for Redis to answer before it says it cannot reach it. */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects and waits until Redis answers. Commands fail fast while Redis is
 * down (no offline queue), so callers can answer 503 or fail open at once.
 * An address that takes the connection and never answers (another service's
 * port) is given up after REDIS_CONNECT_TIMEOUT_MS, as one that refuses it.
 */
export async function connectRedis(url: string, timeoutMs = REDIS_CONNECT_TIMEOUT_MS): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Reported through failing commands and /readyz; the last one says why a start failed.
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => (lastError = err));
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s (is Redis at that address?)`)), timeoutMs);
  });
  try {
    await Promise.race([redis.connect(), silent]);
  } catch (err) {
    redis.disconnect();
    const reason = lastError && !(err as Error).message.startsWith('no answer') ? lastError.message : (err as Error).message;
    throw new Error(`cannot reach Redis at REDIS_URL: ${reason}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  return redis;
}
