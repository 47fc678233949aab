import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** A process's readiness as its probe answers it: the HTTP status and the JSON body. */
export type ReadinessAnswer = () => Promise<{ status: number; body: unknown }>;

/**
 * Serves `GET /metrics` on a listener of its own, never the public API port. `more` appends
 * another exposition (the Temporal SDK's worker metrics), so one scrape gets both. `/healthz`
 * answers 200 while the process serves, so a worker (which has no other port) can be probed;
 * `/readyz` answers what `readiness` says (200 while the process serves, without it).
 */
export async function serveMetrics(options: {
  host: string;
  port: number;
  /** The setting that chose the port, named when it cannot be had (QUIRE_METRICS_PORT, QUIRE_WORKER_METRICS_PORT). */
  portSetting: string;
  registry: Registry;
  more?: () => Promise<string>;
  readiness?: ReadinessAnswer;
}): Promise<MetricsListener> {
  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/healthz') return void json(res, 200, { status: 'ok' });
    if (req.method === 'GET' && path === '/readyz') {
      if (!options.readiness) return void json(res, 200, { status: 'ok' });
      options.readiness().then(
        ({ status, body }) => json(res, status, body),
        (err: unknown) => json(res, 503, { error: `not ready: ${(err as Error).name}`, code: 'unavailable' }),
      );
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at /metrics\n');
      return;
    }
    Promise.all([options.registry.metrics(), options.more?.() ?? ''])
      .then(([own, more]) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(more ? `${own}\n${more}` : own))
      .catch((err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics could not be collected: ${(err as Error).name}\n`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`metrics port ${options.port} is already in use (${options.portSetting}); choose a free one, or stop the process that holds it`)
          : new Error(`cannot listen for metrics on ${options.host}:${options.port} (QUIRE_METRICS_HOST): ${err.message}`, { cause: err }),
      ),
    );
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
