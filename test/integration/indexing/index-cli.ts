import { PassThrough } from 'node:stream';
import type { ApiServices } from '../../../api/services.js';
import { loadConfig } from '../../../core/config.js';
import { cliStores } from '../../../infra/cli/context.js';
import { indexCommand } from '../../../infra/cli/index-command.js';
import { temporalEnv } from '../../support/temporal.js';

/** `quire index DOMAIN` as an operator runs it, against the suite's Temporal dev server and `taskQueue`: its exit code and what it printed. */
export async function runIndexCli(services: ApiServices, taskQueue: string, domain: string): Promise<{ code: number; printed: string }> {
  const out = new PassThrough();
  let printed = '';
  out.on('data', (d: Buffer) => (printed += d.toString()));
  const config = loadConfig({
    QUIRE_DATA_DIR: services.config.dataDir,
    TEMPORAL_ADDRESS: (await temporalEnv()).address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: 'silent',
  });
  const code = await indexCommand([domain], { config, database: services.database, tenants: services.tenants, ...cliStores(services.database), out });
  return { code, printed };
}
