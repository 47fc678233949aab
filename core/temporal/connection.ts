import fs from 'node:fs/promises';
import type { Config } from '../config.js';

export interface TemporalTarget {
  address: string;
  namespace: string;
  tls: boolean;
  apiKey?: string;
  tlsCertPath?: string;
  tlsKeyPath?: string;
}

/** Where the Temporal frontend is: the configured cluster, or the embedded dev server. */
export function temporalTarget(config: Config): TemporalTarget {
  const t = config.temporal;
  return {
    address: t.address ?? `127.0.0.1:${t.embeddedPort}`,
    namespace: t.namespace,
    tls: t.tls,
    ...(t.apiKey ? { apiKey: t.apiKey } : {}),
    ...(t.tlsCertPath ? { tlsCertPath: t.tlsCertPath } : {}),
    ...(t.tlsKeyPath ? { tlsKeyPath: t.tlsKeyPath } : {}),
  };
}

/** A client certificate or key file, or a start-up error naming the variable that points at it. */
async function readTlsFile(variable: 'TEMPORAL_TLS_CERT' | 'TEMPORAL_TLS_KEY', file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    throw new Error(`cannot read ${variable} (${file}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
}

export async function tlsOptions(target: TemporalTarget) {
  if (!target.tls) return undefined;
  if (target.tlsCertPath && target.tlsKeyPath) {
    return {
      clientCertPair: { crt: await readTlsFile('TEMPORAL_TLS_CERT', target.tlsCertPath), key: await readTlsFile('TEMPORAL_TLS_KEY', target.tlsKeyPath) },
    };
  }
  return true;
}
