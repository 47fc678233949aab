/**
 * Stands in for a corporate forward proxy: a real HTTP proxy that tunnels
 * `CONNECT host:port` (how clients reach https origins, and how undici reaches
 * every origin through a proxy) and relays absolute-form requests. Tests count
 * what went through it and, with `credentials`, that the client authenticated.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { onSuiteEnd } from '../support/teardown.js';

export interface ForwardProxy {
  url: string;
  /** `host:port` of every tunnel opened, in order. */
  tunnels: string[];
  /** Local ports of the proxy's own connections to the origins: the origin sees requests from these. */
  upstreamPorts: Set<number>;
  /** Requests refused for missing or wrong credentials (407). */
  refused: number;
  close(): Promise<void>;
}

export async function startForwardProxy(opts: { credentials?: { user: string; password: string } } = {}): Promise<ForwardProxy> {
  const expected = opts.credentials && `Basic ${Buffer.from(`${opts.credentials.user}:${opts.credentials.password}`).toString('base64')}`;
  const sockets = new Set<net.Socket>();
  const state: ForwardProxy = { url: '', tunnels: [], upstreamPorts: new Set(), refused: 0, close: async () => undefined };
  const allowed = (req: http.IncomingMessage) => !expected || req.headers['proxy-authorization'] === expected;

  const server = http.createServer((req, res) => {
    if (!allowed(req)) {
      state.refused++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.once('socket', (s) => s.once('connect', () => state.upstreamPorts.add(s.localPort ?? 0)));
    upstream.once('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    if (!allowed(req)) {
      state.refused++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    state.tunnels.push(req.url ?? '');
    const upstream = net.connect(Number(port), host, () => {
      state.upstreamPorts.add(upstream.localPort ?? 0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', drop);
    client.once('error', drop);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  state.close = () => {
    closing ??= new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closing;
  };
  onSuiteEnd(state.close);
  return state;
}
