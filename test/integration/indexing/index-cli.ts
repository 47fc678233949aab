import { PassThrough } from 'node:stream';
import type { ApiServices } from '../../../api/services.js';
import { indexCommand } from '../../../infra/cli/index-command.js';

/** `quire index DOMAIN` as an operator runs it, on the test's platform (the suite's Temporal dev server) and `taskQueue`: its exit code and what it printed. */
export async function runIndexCli(services: ApiServices, taskQueue: string, domain: string): Promise<{ code: number; printed: string }> {
  const out = new PassThrough();
  let printed = '';
  out.on('data', (d: Buffer) => (printed += d.toString()));
  const config = { ...services.config, temporal: { ...services.config.temporal, taskQueue } };
  const code = await indexCommand([domain], { ...services, config, out });
  return { code, printed };
}
