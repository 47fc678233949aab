import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onSuiteEnd } from '../support/teardown.js';

/** A request to a fake JSON API, its body parsed. */
export interface JsonRequest {
  method: string;
  /** The path as sent, percent-encoding kept (GitLab keeps `%2F` in project paths). */
  rawPath: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

export type Send = (status: number, payload: unknown, headers?: Record<string, string>) => void;

export interface JsonServer {
  url: string;
  /** Answers the next request with this status (and Retry-After seconds), once. */
  failNext(status: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

export interface JsonServerOptions {
  /** Called for every request, the scripted failures included. */
  record(req: JsonRequest): void;
  /** The error message of a scripted failure, in the faked service's wording. */
  failureMessage(status: number): string;
  handle(req: JsonRequest, send: Send): void;
}

/**
 * The HTTP scaffolding the forge fakes share: a real server on a free port
 * that parses JSON bodies, records each request, answers a scripted failure
 * once when asked, and closes at the end of the suite.
 */
export async function startJsonServer(opts: JsonServerOptions): Promise<JsonServer> {
  let failure: { status: number; retryAfter?: number } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const request: JsonRequest = {
        method: req.method ?? 'GET',
        rawPath: (req.url ?? '/').split('?')[0] ?? '/',
        query: new URL(req.url ?? '/', 'http://fake').searchParams,
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined,
      };
      opts.record(request);
      const send: Send = (status, payload, headers = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (failure) {
        const f = failure;
        failure = undefined;
        return send(f.status, { message: opts.failureMessage(f.status) }, f.retryAfter !== undefined ? { 'retry-after': String(f.retryAfter) } : {});
      }
      opts.handle(request, send);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  onSuiteEnd(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failNext(status, retryAfterSeconds) {
      failure = { status, ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}) };
    },
    close,
  };
}
