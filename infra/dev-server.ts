import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../core/contracts/search-attributes.js';
import { portInUse, spawnGuarded, type ChildSpec } from './supervised-process.js';

export interface DevServerOptions {
  binary: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
}

export const DEV_SERVER = 'Temporal dev server';

/** One readiness probe, bounded: a server that accepts connections before it serves must not hang it. */
async function answers(address: string): Promise<boolean> {
  // No retry interceptor: the caller's loop is the retry.
  const c = await Connection.connect({ address, connectTimeout: '1s', interceptors: [] }).catch(() => undefined);
  if (!c) return false;
  try {
    await c.withDeadline(Date.now() + 2000, () => c.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  } finally {
    await c.close().catch(() => undefined);
  }
}

/**
 * The Temporal CLI dev server as a child of the start command: its state in a SQLite file under
 * the data directory (so a restart picks up every workflow where it was), on fixed ports, with
 * Quire's search attributes registered.
 */
export function devServerChild(o: DevServerOptions): ChildSpec & { address: string; uiUrl: string } {
  const address = `127.0.0.1:${o.port}`;
  return {
    name: DEV_SERVER,
    address,
    uiUrl: `http://localhost:${o.uiPort}`,
    hint: 'see temporal.log in the data directory',
    async start() {
      if (!fs.existsSync(o.binary)) {
        throw new Error(`the Temporal CLI is missing at ${o.binary}; run: bash infra/setup.sh (or set QUIRE_TEMPORAL_BIN)`);
      }
      for (const [name, port] of [['QUIRE_TEMPORAL_PORT', o.port], ['QUIRE_TEMPORAL_UI_PORT', o.uiPort]] as const) {
        if (await portInUse(port)) throw new Error(`port ${port} is already in use; stop the other process or set ${name}`);
      }
      const args = [
        'server', 'start-dev',
        '--ip', '127.0.0.1',
        '--port', String(o.port),
        '--ui-port', String(o.uiPort),
        '--db-filename', path.join(o.dataDir, 'temporal.sqlite'),
        '--namespace', o.namespace,
        '--log-level', 'error',
        ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=Keyword`]),
      ];
      return spawnGuarded(o.binary, args, path.join(o.dataDir, 'temporal.log'));
    },
    async ready(_run, signal) {
      while (!signal.aborted && !(await answers(address))) await sleep(200, undefined, { signal }).catch(() => undefined);
    },
    readyTimeoutMs: 60_000,
    stopGraceMs: 10_000,
  };
}
