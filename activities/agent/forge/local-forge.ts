import { localPullUrl, PullStore } from '../../../core/forge/index.js';
import type { Project } from '../../../core/tenants/index.js';
import type { ActivityServices } from '../../services.js';
import type { PullRequestInput, PullRequestResult } from '../types.js';
import { pullRequestBody, turnMarker } from './pr-body.js';

/**
 * The embedded forge: the branch is already pushed to the local repository;
 * the record lives in core/forge. The link carries a view token, so it opens
 * in a browser without the admin key.
 */
export async function openLocalPullRequest(services: ActivityServices, project: Project, input: PullRequestInput): Promise<PullRequestResult> {
  const store = new PullStore(services.config.dataDir);
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
  // A fresh token per call: links already handed out keep working, and a retried activity just adds one.
  const token = await store.addViewToken(project.id, pull.number);
  return { url: localPullUrl(services.config.publicUrl, project.id, pull.number, token), number: pull.number, created };
}
