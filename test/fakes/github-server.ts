/**
 * Stands in for api.github.com: a real HTTP server speaking the GitHub REST endpoints Octokit
 * calls to open a pull request (list pulls, create pull, list and create issue comments), so
 * the production `@octokit/rest` code runs unchanged. Records every request for assertions.
 */
import { startJsonServer, type JsonRequest, type Send } from './json-server.js';

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
  const requests: GithubRequest[] = [];
  const pulls: FakePull[] = [];
  const fake: FakeGithub = { url: '', requests, pulls, token: opts.token, failNext: () => undefined, close: async () => undefined };
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

  const handle = (req: JsonRequest, send: Send) => {
    const { method, body } = req;
    const pathname = req.rawPath;
    if (req.headers.authorization !== `token ${fake.token}`) return send(401, { message: 'Bad credentials' });
    if (!pathname.startsWith(repoPath)) return send(404, { message: 'Not Found' });
    const rest = pathname.slice(repoPath.length);
    if (rest === '/pulls' && method === 'GET') {
      const head = req.query.get('head');
      const wanted = req.query.get('state') ?? 'open';
      const list = pulls.filter((p) => (wanted === 'all' || p.state === wanted) && (!head || `${opts.owner}:${p.head}` === head));
      return send(200, list.map(toJson));
    }
    if (rest === '/pulls' && method === 'POST') {
      const b = body ?? {};
      if (pulls.some((p) => p.head === b.head && p.state === 'open'))
        return send(422, { message: 'Validation Failed', errors: [{ message: `A pull request already exists for ${opts.owner}:${String(b.head)}.` }] });
      const pull: FakePull = {
        number: pulls.length + 1,
        title: String(b.title),
        body: String(b.body ?? ''),
        head: String(b.head),
        base: String(b.base),
        draft: b.draft === true,
        state: 'open',
        comments: [],
      };
      pulls.push(pull);
      return send(201, toJson(pull));
    }
    const comments = /^\/issues\/(\d+)\/comments$/.exec(rest);
    const pull = comments ? pulls.find((p) => p.number === Number(comments[1])) : undefined;
    if (comments && !pull) return send(404, { message: 'Not Found' });
    if (pull && method === 'GET') return send(200, pull.comments.map((c, i) => ({ id: i + 1, body: c })));
    if (pull && method === 'POST') {
      pull.comments.push(String(body?.body ?? ''));
      return send(201, { id: pull.comments.length, body: body?.body });
    }
    return send(404, { message: 'Not Found' });
  };

  const server = await startJsonServer({
    record: (req) =>
      requests.push({ method: req.method, path: req.rawPath, query: req.query, authorization: req.headers.authorization, body: req.body }),
    failureMessage: (status) => `scripted ${status}`,
    handle,
  });
  return Object.assign(fake, { url: server.url, failNext: server.failNext, close: server.close });
}
