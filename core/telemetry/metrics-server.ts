import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on a listener of its own, never the public API port. `more` appends
 * another exposition (the Temporal SDK's worker metrics), so one scrape gets both. `/healthz` and
 * `/readyz` answer 200 while the process serves, so a worker (which has no other port) can be probed.
 */
export async function serveMetrics(options: { host: string; port: number; registry: Registry; more?: () => Promise<string> }): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}\n');
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
      reject(err.code === 'EADDRINUSE' ? new Error(`metrics port ${options.port} is already in use; set another or stop the other process`) : err),
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
