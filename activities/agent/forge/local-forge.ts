import { linkSecret, localPullUrl, viewToken } from '../../../core/forge/index.js';
import type { Project } from '../../../core/tenants/index.js';
import type { ActivityServices } from '../../services.js';
import type { PullRequestRequest, PullRequestResult } from '../types.js';
import { pullRequestBody, turnMarker } from './pr-body.js';

export type LocalForgeDeps = Pick<ActivityServices, 'pulls' | 'config'>;

/**
 * The embedded forge: the branch is already pushed to the local repository;
 * the record lives in core/forge. The link carries a view token, so it opens
 * in a browser without the admin key.
 */
export async function openLocalPullRequest(services: LocalForgeDeps, project: Project, input: PullRequestRequest): Promise<PullRequestResult> {
  const store = services.pulls;
  const body = pullRequestBody(input);
  const { pull, created } = await store.openOnce({
    projectId: project.id,
    jobId: input.jobId,
    branch: input.branch,
    base: project.branch,
    title: input.title,
    body,
    draft: input.draft,
  });
  const marker = turnMarker(input.jobId, input.turn);
  if (!created && !pull.body.includes(marker) && !pull.comments.some((c) => c.body.includes(marker))) {
    await store.update(project.id, pull.number, (p) => {
      p.comments.push({ body, createdAt: new Date().toISOString() });
    });
  }
  // The same token on every turn and retry: the job's prLink stays the same link.
  const token = viewToken(await linkSecret(services.config.dataDir), project.id, pull.number);
  await store.keepViewToken(project.id, pull.number, token);
  return { url: localPullUrl(services.config.publicUrl, project.id, pull.number, token), number: pull.number, created };
}
