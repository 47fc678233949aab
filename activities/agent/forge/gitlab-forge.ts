import { publicRepository } from '../../../core/jobs/job-record.js';
import type { ForgeClients } from '../../../core/forge/index.js';
import { GitlabHttpError } from '../../../core/forge/gitlab-requester.js';
import type { Project } from '../../../core/tenants/index.js';
import { AGENT_ERROR, classifyHttpStatus, errorMessage, permanent, transient } from '../errors.js';
import { scrubToken } from '../git.js';
import type { PullRequestRequest, PullRequestResult } from '../types.js';
import { pullRequestBody, turnMarker } from './pr-body.js';

/** GitLab marks a merge request as a draft by this title prefix. */
const DRAFT_PREFIX = 'Draft: ';

/**
 * The GitLab instance and project path of an HTTPS clone URL: `https://gitlab.com/group/sub/docs.git`
 * → host `https://gitlab.com`, project `group/sub/docs`. Self-managed instances work the same way;
 * one served under a relative URL root (`https://host/gitlab/…`) cannot be told apart and is refused.
 */
export function gitlabProject(repository: string): { host: string; path: string } {
  let url: URL;
  try {
    url = new URL(repository);
  } catch {
    throw permanent(AGENT_ERROR.forgeMisconfigured, `repository ${publicRepository(repository, 'of the project')} is not an https://HOST/GROUP/PROJECT URL`);
  }
  const path = url.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  if (!/^https?:$/.test(url.protocol) || path.split('/').length < 2 || url.username || url.password) {
    throw permanent(AGENT_ERROR.forgeMisconfigured, `repository ${url.origin}${url.pathname} is not an https://HOST/GROUP/PROJECT URL`);
  }
  return { host: url.origin, path };
}

function classifyGitlabError(err: unknown, token: string): Error {
  if (err instanceof GitlabHttpError) {
    const message = scrubToken(`GitLab answered ${err.status}: ${err.message.split('\n')[0]}`, token);
    return classifyHttpStatus(err.status, message, err.retryAfter);
  }
  return transient(AGENT_ERROR.forgeUnavailable, scrubToken(`GitLab could not be reached: ${errorMessage(err).split('\n')[0]}`, token));
}

/** Finds the open merge request of the job branch or opens it; each follow-up turn adds one note. */
export async function openGitlabMergeRequest(forges: ForgeClients, project: Project, token: string, input: PullRequestRequest): Promise<PullRequestResult> {
  const { host, path } = gitlabProject(project.repository);
  const body = pullRequestBody(input);
  try {
    const { mergeRequests, notes } = await forges.gitlab(host, token);
    const open = await mergeRequests.all({ projectId: path, state: 'opened', sourceBranch: input.branch, perPage: 10, maxPages: 1 });
    const existing = open.find((mr) => mr.source_branch === input.branch);
    if (existing) {
      const marker = turnMarker(input.jobId, input.turn);
      if (!(existing.description ?? '').includes(marker)) {
        const posted = await notes.all(path, existing.iid, { perPage: 100, maxPages: 1 });
        if (!posted.some((n) => n.body.includes(marker))) await notes.create(path, existing.iid, body);
      }
      return { url: existing.web_url, number: existing.iid, created: false };
    }
    const title = input.draft ? `${DRAFT_PREFIX}${input.title}` : input.title;
    const created = await mergeRequests.create(path, input.branch, project.branch, title, { description: body, removeSourceBranch: true });
    return { url: created.web_url, number: created.iid, created: true };
  } catch (err) {
    throw classifyGitlabError(err, token);
  }
}
