import Router from '@koa/router';
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

/** /healthz: the process answers. /readyz: every engine it needs answers too. */
export function healthRouter(services: ApiServices): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const names = Object.keys(services.probes);
    const results = await Promise.all(names.map((n) => probe(services.probes[n]!)));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i]]));
    const down = names.filter((_, i) => results[i] !== 'ok');
    if (down.length > 0) {
      ctx.status = 503;
      ctx.body = { error: `not ready: ${down.join(', ')} unavailable`, code: 'unavailable', checks };
      return;
    }
    ctx.body = { status: 'ok', checks };
  });
  return router;
}
