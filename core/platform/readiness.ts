import type { Config } from '../config.js';

const PROBE_TIMEOUT_MS = 2000;

/** What one readiness check found: each probe's answer, those down, and those down but tolerated. */
export interface Readiness {
  checks: Record<string, string>;
  down: string[];
  degraded: string[];
}

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

/**
 * Runs every probe at once (each given 2 s). With QUIRE_RATE_LIMIT_ON_STORE_ERROR=open a process is
 * built to serve through a Redis outage, so Redis down is `degraded`, not `down`: answering not
 * ready would have every instance taken out of rotation at once. The API's `/readyz` and the
 * worker's answer from this one check.
 */
export async function checkReadiness(probes: Record<string, () => Promise<void>>, config: Pick<Config, 'rateLimitOnStoreError'>): Promise<Readiness> {
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((n) => probe(probes[n]!)));
  const tolerated = new Set(config.rateLimitOnStoreError === 'open' ? ['redis'] : []);
  return {
    checks: Object.fromEntries(names.map((n, i) => [n, results[i]!])),
    down: names.filter((n, i) => results[i] !== 'ok' && !tolerated.has(n)),
    degraded: names.filter((n, i) => results[i] !== 'ok' && tolerated.has(n)),
  };
}
