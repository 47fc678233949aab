import Router from '@koa/router';
import { recorderOf } from './analytics/recorder-of.js';
import type { ApiServices } from './services.js';

const PROBE_TIMEOUT_MS = 2000;

async function probe(check: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), PROBE_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (err) {
    return `down: ${err instanceof Error ? err.message.split('\n')[0] : 'error'}`;
  } finally {
    clearTimeout(timer);
  }
}

/** What the health routes use: the engines' probes and the analytics queue's figures. */
export type HealthRouterDeps = Pick<ApiServices, 'probes' | 'config' | 'analytics'>;

/** /healthz: the process answers. /readyz: every engine it needs answers too (Redis may be degraded under the open policy). */
export function healthRouter(services: HealthRouterDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const names = Object.keys(services.probes);
    const results = await Promise.all(names.map((n) => probe(services.probes[n]!)));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i]]));
    // With QUIRE_RATE_LIMIT_ON_STORE_ERROR=open the API is built to serve through a Redis outage;
    // answering 503 would have a load balancer take every instance out of rotation at once.
    const tolerated = new Set(services.config.rateLimitOnStoreError === 'open' ? ['redis'] : []);
    const down = names.filter((n, i) => results[i] !== 'ok' && !tolerated.has(n));
    const degraded = names.filter((n, i) => results[i] !== 'ok' && tolerated.has(n));
    // Lost analytics never make the API unready; the counter is here for monitoring.
    const analytics = recorderOf(services).stats;
    if (down.length > 0) {
      ctx.status = 503;
      ctx.body = { error: `not ready: ${down.join(', ')} unavailable`, code: 'unavailable', checks, analytics };
      return;
    }
    ctx.body = degraded.length > 0 ? { status: 'degraded', degraded, checks, analytics } : { status: 'ok', checks, analytics };
  });
  return router;
}
