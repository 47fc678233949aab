import http from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Config } from '../core/config.js';

/** How often Node looks for connections past their header or request deadline. */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * The API's HTTP server: the app behind header and request deadlines (a
 * client sending its headers a byte at a time is cut off), and requests Node
 * itself refuses (raw bytes in the request line, oversized headers, a
 * deadline passed) answered in the JSON error shape. Used by the entry point,
 * the tests and the benchmarks alike.
 */
export function createHttpServer(app: Koa, limits: Config['http']): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node's default checks every 30 s, which lets a slowloris connection live that much longer.
      connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, limits.headersTimeoutMs),
    },
    app.callback(),
  );
  server.on('clientError', answerClientError);
  return server;
}

/** A response is already under way on this socket: a second status line would corrupt it. */
function responseStarted(socket: Duplex): boolean {
  const message: unknown = Reflect.get(socket, '_httpMessage');
  return typeof message === 'object' && message !== null && Reflect.get(message, 'headersSent') === true;
}

function refusal(err: NodeJS.ErrnoException): { status: number; code: string; error: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'request_timeout', error: 'the request was not received in time' };
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'headers_too_large', error: 'request headers too large' };
  return { status: 400, code: 'invalid_request', error: 'malformed HTTP request' };
}

/** Node's parser refused the request before the app saw it. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  const { status, ...body } = refusal(err);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  );
}
