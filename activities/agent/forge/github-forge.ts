import { publicRepository } from '../../../core/jobs/job-record.js';
import type { Project } from '../../../core/tenants/index.js';
import type { ActivityServices } from '../../services.js';
import { AGENT_ERROR, classifyHttpStatus, errorMessage, permanent, transient } from '../errors.js';
import { scrubToken } from '../git.js';
import type { PullRequestRequest, PullRequestResult } from '../types.js';
import { pullRequestBody, turnMarker } from './pr-body.js';

/** OWNER and REPO from https://github.com/OWNER/REPO(.git) (or a GitHub Enterprise host). */
export function githubRepo(repository: string): { owner: string; repo: string } {
  const m = /^https:\/\/[^/]+\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(repository);
  if (!m) throw permanent(AGENT_ERROR.forgeMisconfigured, `repository ${publicRepository(repository, 'of the project')} is not an https://github.com/OWNER/REPO URL`);
  return { owner: m[1]!, repo: m[2]! };
}

function classifyGithubError(err: unknown, token: string): Error {
  const status = err && typeof err === 'object' && 'status' in err && typeof err.status === 'number' ? err.status : undefined;
  const headers = err && typeof err === 'object' && 'response' in err && err.response && typeof err.response === 'object' && 'headers' in err.response ? err.response.headers : undefined;
  const retryAfter = headers && typeof headers === 'object' && 'retry-after' in headers ? String(headers['retry-after']) : undefined;
  const message = scrubToken(`GitHub answered ${status ?? 'no response'}: ${errorMessage(err).split('\n')[0]}`, token);
  if (status === undefined) return transient(AGENT_ERROR.forgeUnavailable, message);
  // GitHub signals secondary rate limits as 403 with Retry-After; those are transient, not bad credentials.
  if (status === 403 && retryAfter) return transient(AGENT_ERROR.forgeUnavailable, message, Number(retryAfter) * 1000);
  return classifyHttpStatus(status, message, retryAfter);
}

export type GithubForgeDeps = Pick<ActivityServices, 'forges'>;

/** Finds the open pull request for the job branch or creates it; follow-up turns add a comment. */
export async function openGithubPullRequest(
  services: GithubForgeDeps,
  project: Project,
  token: string,
  input: PullRequestRequest,
): Promise<PullRequestResult> {
  const { owner, repo } = githubRepo(project.repository);
  const body = pullRequestBody(input);
  try {
    const octokit = await services.forges.github(token);
    const open = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${input.branch}`, per_page: 10 });
    const existing = open.data.find((p) => p.head.ref === input.branch);
    if (existing) {
      const marker = turnMarker(input.jobId, input.turn);
      if (!(existing.body ?? '').includes(marker)) {
        const comments = await octokit.rest.issues.listComments({ owner, repo, issue_number: existing.number, per_page: 100 });
        if (!comments.data.some((c) => (c.body ?? '').includes(marker)))
          await octokit.rest.issues.createComment({ owner, repo, issue_number: existing.number, body });
      }
      return { url: existing.html_url, number: existing.number, created: false };
    }
    const created = await octokit.rest.pulls.create({ owner, repo, head: input.branch, base: project.branch, title: input.title, body, draft: input.draft });
    return { url: created.data.html_url, number: created.data.number, created: true };
  } catch (err) {
    throw classifyGithubError(err, token);
  }
}
