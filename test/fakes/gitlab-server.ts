/**
 * Stands in for a GitLab instance (gitlab.com or self-managed): a real HTTP server speaking the
 * REST v4 endpoints Quire's GitLab forge calls through @gitbeaker/core (list and create merge
 * requests, list and create merge-request notes), with GitLab's `PRIVATE-TOKEN` authentication,
 * URL-encoded project paths and error bodies, so the production client code runs unchanged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onSuiteEnd } from '../support/teardown.js';

export interface FakeMergeRequest {
  iid: number;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  state: 'opened' | 'closed' | 'merged';
  notes: string[];
}

export interface GitlabRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  privateToken: string | undefined;
  body: Record<string, unknown> | undefined;
}

export interface FakeGitlab {
  url: string;
  requests: GitlabRequest[];
  mergeRequests: FakeMergeRequest[];
  /** Token the server accepts; any other gets 401 like GitLab. */
  token: string;
  /** Answers the next request with this status (and Retry-After seconds), once. */
  failNext(status: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

/** A GitLab that hosts one project, `projectPath` (e.g. `acme/docs/site`). */
export async function startFakeGitlab(opts: { projectPath: string; token: string }): Promise<FakeGitlab> {
  let failure: { status: number; retryAfter?: number } | undefined;
  const state: FakeGitlab = {
    url: '',
    requests: [],
    mergeRequests: [],
    token: opts.token,
    failNext(status, retryAfterSeconds) {
      failure = { status, ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}) };
    },
    close: async () => undefined,
  };
  const projectPrefix = `/api/v4/projects/${encodeURIComponent(opts.projectPath)}`;
  const toJson = (mr: FakeMergeRequest) => ({
    id: 1000 + mr.iid,
    iid: mr.iid,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    draft: mr.title.startsWith('Draft: '),
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    web_url: `${state.url}/${opts.projectPath}/-/merge_requests/${mr.iid}`,
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // GitLab keeps %2F encoded in the project segment, so match on the raw path.
      const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
      const query = new URL(req.url ?? '/', 'http://fake').searchParams;
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      const token = req.headers['private-token'];
      state.requests.push({ method: req.method ?? 'GET', path: rawPath, query, privateToken: typeof token === 'string' ? token : undefined, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (failure) {
        const f = failure;
        failure = undefined;
        return send(f.status, { message: `${f.status} scripted` }, f.retryAfter !== undefined ? { 'retry-after': String(f.retryAfter) } : {});
      }
      if (token !== state.token) return send(401, { message: '401 Unauthorized' });
      if (!rawPath.startsWith(`${projectPrefix}/`)) return send(404, { message: '404 Project Not Found' });
      const rest = rawPath.slice(projectPrefix.length);
      if (rest === '/merge_requests' && req.method === 'GET') {
        const wanted = query.get('state');
        const source = query.get('source_branch');
        const list = state.mergeRequests.filter((mr) => (!wanted || wanted === 'all' || mr.state === wanted) && (!source || mr.sourceBranch === source));
        return send(200, list.map(toJson));
      }
      if (rest === '/merge_requests' && req.method === 'POST') {
        const b = body ?? {};
        if (state.mergeRequests.some((mr) => mr.sourceBranch === b.source_branch && mr.state === 'opened'))
          return send(409, { message: [`Another open merge request already exists for this source branch: !1`] });
        const mr: FakeMergeRequest = {
          iid: state.mergeRequests.length + 1,
          title: String(b.title),
          description: String(b.description ?? ''),
          sourceBranch: String(b.source_branch),
          targetBranch: String(b.target_branch),
          state: 'opened',
          notes: [],
        };
        state.mergeRequests.push(mr);
        return send(201, toJson(mr));
      }
      const notes = /^\/merge_requests\/(\d+)\/notes$/.exec(rest);
      const mr = notes ? state.mergeRequests.find((m) => m.iid === Number(notes[1])) : undefined;
      if (notes && !mr) return send(404, { message: '404 Not found' });
      if (mr && req.method === 'GET') return send(200, mr.notes.map((n, i) => ({ id: i + 1, body: n, system: false })));
      if (mr && req.method === 'POST') {
        mr.notes.push(String(body?.body ?? ''));
        return send(201, { id: mr.notes.length, body: body?.body, system: false });
      }
      return send(404, { message: '404 Not Found' });
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
