/**
 * Stands in for api.github.com: a real HTTP server speaking the GitHub REST endpoints Octokit
 * calls to open a pull request (list pulls, create pull, list and create issue comments), so
 * the production `@octokit/rest` code runs unchanged. Records every request for assertions.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onSuiteEnd } from '../support/teardown.js';

export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  state: 'open' | 'closed';
  comments: string[];
}

export interface GithubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

export interface FakeGithub {
  url: string;
  requests: GithubRequest[];
  pulls: FakePull[];
  /** Token the server accepts; any other gets 401 like GitHub's "Bad credentials". */
  token: string;
  /** Answers the next request with this status (and Retry-After seconds), once. */
  failNext(status: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

export async function startFakeGithub(opts: { owner: string; repo: string; token: string }): Promise<FakeGithub> {
  let failure: { status: number; retryAfter?: number } | undefined;
  const state: FakeGithub = {
    url: '',
    requests: [],
    pulls: [],
    token: opts.token,
    failNext(status, retryAfterSeconds) {
      failure = { status, ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}) };
    },
    close: async () => undefined,
  };
  const repoPath = `/repos/${opts.owner}/${opts.repo}`;
  const toJson = (p: FakePull) => ({
    number: p.number,
    title: p.title,
    body: p.body,
    draft: p.draft,
    state: p.state,
    html_url: `https://github.com/${opts.owner}/${opts.repo}/pull/${p.number}`,
    head: { ref: p.head, label: `${opts.owner}:${p.head}` },
    base: { ref: p.base },
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      state.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (failure) {
        const f = failure;
        failure = undefined;
        return send(f.status, { message: `scripted ${f.status}` }, f.retryAfter !== undefined ? { 'retry-after': String(f.retryAfter) } : {});
      }
      if (req.headers.authorization !== `token ${state.token}`) return send(401, { message: 'Bad credentials' });
      if (!url.pathname.startsWith(repoPath)) return send(404, { message: 'Not Found' });
      const rest = url.pathname.slice(repoPath.length);
      if (rest === '/pulls' && req.method === 'GET') {
        const head = url.searchParams.get('head');
        const wanted = url.searchParams.get('state') ?? 'open';
        const list = state.pulls.filter((p) => (wanted === 'all' || p.state === wanted) && (!head || `${opts.owner}:${p.head}` === head));
        return send(200, list.map(toJson));
      }
      if (rest === '/pulls' && req.method === 'POST') {
        const b = body ?? {};
        if (state.pulls.some((p) => p.head === b.head && p.state === 'open'))
          return send(422, { message: 'Validation Failed', errors: [{ message: `A pull request already exists for ${opts.owner}:${String(b.head)}.` }] });
        const pull: FakePull = {
          number: state.pulls.length + 1,
          title: String(b.title),
          body: String(b.body ?? ''),
          head: String(b.head),
          base: String(b.base),
          draft: b.draft === true,
          state: 'open',
          comments: [],
        };
        state.pulls.push(pull);
        return send(201, toJson(pull));
      }
      const comments = /^\/issues\/(\d+)\/comments$/.exec(rest);
      const pull = comments ? state.pulls.find((p) => p.number === Number(comments[1])) : undefined;
      if (comments && !pull) return send(404, { message: 'Not Found' });
      if (pull && req.method === 'GET') return send(200, pull.comments.map((c, i) => ({ id: i + 1, body: c })));
      if (pull && req.method === 'POST') {
        pull.comments.push(String(body?.body ?? ''));
        return send(201, { id: pull.comments.length, body: body?.body });
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  onSuiteEnd(state.close);
  return state;
}
