import { inSpan, SpanKind } from '../../../core/telemetry/index.js';
import type { ActivityServices } from '../../services.js';
import { loadProject, forgeToken } from '../project.js';
import type { PullRequestInput, PullRequestResult } from '../types.js';
import { openGithubPullRequest } from './github-forge.js';
import { openGitlabMergeRequest } from './gitlab-forge.js';
import { openLocalPullRequest } from './local-forge.js';

export { githubRepo } from './github-forge.js';
export { gitlabProject } from './gitlab-forge.js';
export { pullRequestBody } from './pr-body.js';

/** Idempotent: finds the open pull request for the branch before creating one, on the project's forge. */
export async function openOrUpdatePullRequest(services: ActivityServices, input: PullRequestInput): Promise<PullRequestResult> {
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
