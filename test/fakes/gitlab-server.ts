/**
 * Stands in for a GitLab instance (gitlab.com or self-managed): a real HTTP server speaking the
 * REST v4 endpoints Quire's GitLab forge calls through @gitbeaker/core (list and create merge
 * requests, list and create merge-request notes), with GitLab's `PRIVATE-TOKEN` authentication,
 * URL-encoded project paths and error bodies, so the production client code runs unchanged.
 */
import { startJsonServer, type JsonRequest, type Send } from './json-server.js';

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
  const requests: GitlabRequest[] = [];
  const mergeRequests: FakeMergeRequest[] = [];
  const projectPrefix = `/api/v4/projects/${encodeURIComponent(opts.projectPath)}`;
  const fake: FakeGitlab = { url: '', requests, mergeRequests, token: opts.token, failNext: () => undefined, close: async () => undefined };
  const toJson = (mr: FakeMergeRequest) => ({
    id: 1000 + mr.iid,
    iid: mr.iid,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    draft: mr.title.startsWith('Draft: '),
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    web_url: `${fake.url}/${opts.projectPath}/-/merge_requests/${mr.iid}`,
  });
  const tokenOf = (req: JsonRequest) => {
    const token = req.headers['private-token'];
    return typeof token === 'string' ? token : undefined;
  };

  // GitLab keeps %2F encoded in the project segment, so this matches on the raw path.
  const handle = (req: JsonRequest, send: Send) => {
    const { method, body, query, rawPath } = req;
    if (tokenOf(req) !== fake.token) return send(401, { message: '401 Unauthorized' });
    if (!rawPath.startsWith(`${projectPrefix}/`)) return send(404, { message: '404 Project Not Found' });
    const rest = rawPath.slice(projectPrefix.length);
    if (rest === '/merge_requests' && method === 'GET') {
      const wanted = query.get('state');
      const source = query.get('source_branch');
      const list = mergeRequests.filter((mr) => (!wanted || wanted === 'all' || mr.state === wanted) && (!source || mr.sourceBranch === source));
      return send(200, list.map(toJson));
    }
    if (rest === '/merge_requests' && method === 'POST') {
      const b = body ?? {};
      if (mergeRequests.some((mr) => mr.sourceBranch === b.source_branch && mr.state === 'opened'))
        return send(409, { message: [`Another open merge request already exists for this source branch: !1`] });
      const mr: FakeMergeRequest = {
        iid: mergeRequests.length + 1,
        title: String(b.title),
        description: String(b.description ?? ''),
        sourceBranch: String(b.source_branch),
        targetBranch: String(b.target_branch),
        state: 'opened',
        notes: [],
      };
      mergeRequests.push(mr);
      return send(201, toJson(mr));
    }
    const notes = /^\/merge_requests\/(\d+)\/notes$/.exec(rest);
    const mr = notes ? mergeRequests.find((m) => m.iid === Number(notes[1])) : undefined;
    if (notes && !mr) return send(404, { message: '404 Not found' });
    if (mr && method === 'GET') return send(200, mr.notes.map((n, i) => ({ id: i + 1, body: n, system: false })));
    if (mr && method === 'POST') {
      mr.notes.push(String(body?.body ?? ''));
      return send(201, { id: mr.notes.length, body: body?.body, system: false });
    }
    return send(404, { message: '404 Not Found' });
  };

  const server = await startJsonServer({
    record: (req) => requests.push({ method: req.method, path: req.rawPath, query: req.query, privateToken: tokenOf(req), body: req.body }),
    failureMessage: (status) => `${status} scripted`,
    handle,
  });
  return Object.assign(fake, { url: server.url, failNext: server.failNext, close: server.close });
}
