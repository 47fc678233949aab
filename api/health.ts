import Router from '@koa/router';
import { checkApiReadiness } from '../core/platform/readiness.js';
import { recorderOf } from './analytics/recorder-of.js';
import type { ApiServices } from './services.js';

/** What the health routes use: the engines' probes and the analytics queue's figures. */
export type HealthRouterDeps = Pick<ApiServices, 'probes' | 'config' | 'analytics'>;

/**
 * /healthz: the process answers. /readyz: every engine it needs answers too; Temporal, and Redis under
 * the open policy, may be degraded (the API serves through their outage).
 */
export function healthRouter(services: HealthRouterDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const { checks, down, degraded } = await checkApiReadiness(services.probes, services.config);
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
