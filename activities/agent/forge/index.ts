import { inSpan, SpanKind } from '../../../core/telemetry/index.js';
import type { ActivityServices } from '../../services.js';
import { loadProject, forgeToken, type ForgeTokenDeps, type ProjectDeps } from '../project.js';
import type { PullRequestInput, PullRequestResult } from '../types.js';
import { openGithubPullRequest, type GithubForgeDeps } from './github-forge.js';
import { openGitlabMergeRequest } from './gitlab-forge.js';
import { openLocalPullRequest, type LocalForgeDeps } from './local-forge.js';

export { githubRepo } from './github-forge.js';
export { gitlabProject } from './gitlab-forge.js';
export { pullRequestBody } from './pr-body.js';

/** What opening a pull request uses: the project, its token, and the forge that holds it. */
export type PullRequestDeps = Pick<ActivityServices, 'jobs'> & ProjectDeps & ForgeTokenDeps & GithubForgeDeps & LocalForgeDeps;

/** Idempotent: finds the open pull request for the branch before creating one, on the project's forge. */
export async function openOrUpdatePullRequest(services: PullRequestDeps, input: PullRequestInput): Promise<PullRequestResult> {
  const project = await loadProject(services, input.projectId);
  const token = forgeToken(services, project);
  const messages = await services.jobs.getMessages(input.projectId, input.jobId, input.messageIds);
  const request = { ...input, prompts: messages.map((m) => m.prompt) };
  const forge = token && (project.forge === 'github' || project.forge === 'gitlab') ? project.forge : 'local';
  return inSpan(`forge ${forge} pull_request`, { 'quire.forge': forge }, () => {
    if (forge === 'github' && token) return openGithubPullRequest(services, project, token, request);
    if (forge === 'gitlab' && token) return openGitlabMergeRequest(services.forges, project, token, request);
    return openLocalPullRequest(services, project, request);
  }, SpanKind.CLIENT);
}
