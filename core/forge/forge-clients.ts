import type { MergeRequestNotes, MergeRequests } from '@gitbeaker/core' with { 'resolution-mode': 'import' };
import type { Octokit } from '@octokit/rest';
import type { Config } from '../config.js';
import { requestOnce } from './gitlab-requester.js';

/** GitLab's merge request and note APIs on one instance, acting with one token. */
export interface GitlabClient {
  mergeRequests: MergeRequests;
  notes: MergeRequestNotes;
}

/**
 * The forges' API clients, each acting with the token its project names. No client retries:
 * the pull request activity is retried by Temporal, which honours Retry-After. The client
 * libraries load on first use: only a worker opening a pull request needs them.
 */
export interface ForgeClients {
  /** GitHub's REST API (or GitHub Enterprise's, `GITHUB_API_URL`). */
  github(token: string): Promise<Octokit>;
  /** The GitLab instance at `host` (`https://gitlab.com`, or a self-managed one). */
  gitlab(host: string, token: string): Promise<GitlabClient>;
}

/** How long one GitHub request may take before it counts as unavailable (Temporal then retries), as GitLab's. */
const GITHUB_TIMEOUT_MS = 30_000;

export function forgeClients(config: Pick<Config, 'githubApiUrl'>, opts: { requestTimeoutMs?: number } = {}): ForgeClients {
  const timeoutMs = opts.requestTimeoutMs ?? GITHUB_TIMEOUT_MS;
  // Octokit sets no deadline of its own: a host that never answers would hold the activity to its timeout.
  const fetchWithDeadline: typeof fetch = (url, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    return fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
  };
  return {
    async github(token) {
      const { Octokit } = await import('@octokit/rest');
      return new Octokit({ auth: token, baseUrl: config.githubApiUrl, request: { retries: 0, fetch: fetchWithDeadline } });
    },
    async gitlab(host, token) {
      const [{ MergeRequestNotes, MergeRequests }, { createRequesterFn }] = await Promise.all([import('@gitbeaker/core'), import('@gitbeaker/requester-utils')]);
      // createRequesterFn applies gitbeaker's default options (auth header, JSON body, query); each request is sent once.
      const options = { host, token, requesterFn: createRequesterFn((_, requestOptions) => Promise.resolve(requestOptions), requestOnce) };
      return { mergeRequests: new MergeRequests(options), notes: new MergeRequestNotes(options) };
    },
  };
}
