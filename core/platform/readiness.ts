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

async function check(probes: Record<string, () => Promise<void>>, tolerated: ReadonlySet<string>): Promise<Readiness> {
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((n) => probe(probes[n]!)));
  return {
    checks: Object.fromEntries(names.map((n, i) => [n, results[i]!])),
    down: names.filter((n, i) => results[i] !== 'ok' && !tolerated.has(n)),
    degraded: names.filter((n, i) => results[i] !== 'ok' && tolerated.has(n)),
  };
}

/**
 * With QUIRE_RATE_LIMIT_ON_STORE_ERROR=open a process is built to serve through a Redis outage, so
 * Redis down is `degraded`, not `down`: answering not ready would have every instance taken out of
 * rotation at once.
 */
const storeTolerated = (config: Pick<Config, 'rateLimitOnStoreError'>): string[] => (config.rateLimitOnStoreError === 'open' ? ['redis'] : []);

/** Runs every probe at once (each given 2 s): the worker's readiness, which needs every engine, Temporal first. */
export function checkReadiness(probes: Record<string, () => Promise<void>>, config: Pick<Config, 'rateLimitOnStoreError'>): Promise<Readiness> {
  return check(probes, new Set(storeTolerated(config)));
}

/**
 * The API's readiness: as the worker's, except that Temporal down is `degraded`. The API still
 * serves the assistant and reads of jobs, and answers job creates itself (503 with Retry-After);
 * answering not ready would take every API pod out of rotation during a Temporal outage.
 */
export function checkApiReadiness(probes: Record<string, () => Promise<void>>, config: Pick<Config, 'rateLimitOnStoreError'>): Promise<Readiness> {
  return check(probes, new Set([...storeTolerated(config), 'temporal']));
}
