import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { onSuiteEnd } from '../../support/teardown.js';

/** A bundled page script: its entry in `pages/`, built for the browser with its dependencies inlined. */
export async function bundlePage(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(__dirname, 'pages', entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`esbuild produced nothing for ${entry}`);
  return code;
}

export interface PageServer {
  /** The pages' origin, another one than the API's. */
  origin: string;
  /** Serves `body` at `route` (HTML or JavaScript, by the route's extension). */
  put(route: string, body: string): void;
}

/**
 * A tiny static site on its own port: to the browser, another origin than
 * the API (a docs site embedding the assistant).
 */
export async function startPageServer(): Promise<PageServer> {
  const files = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const route = new URL(req.url ?? '/', 'http://x').pathname;
    const body = files.get(route);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = route.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  });
  // Another port than the API's: to the browser, another origin (CORS applies).
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  onSuiteEnd(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${port}`, put: (route, body) => void files.set(route, body) };
}

/** An HTML page that sets its configuration and loads one script. */
export function htmlPage(title: string, config: Record<string, string>, script: string, extraHead = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title>${extraHead}</head>
<body><main id="app"></main>
<script>window.QUIRE = ${JSON.stringify(config).replace(/</g, '\\u003c')};</script>
<script src="${script}"></script></body></html>`;
}
