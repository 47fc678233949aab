export { PullStore, PullRecordSchema, canViewWithToken, type PullRecord, type NewPull } from './pull-store.js';
export { branchDiff } from './branch-diff.js';
export { linkSecret, viewToken } from './view-token.js';

/**
 * Where the API serves a local pull request; the activity hands this out as
 * the job's prLink. The token in it lets a browser open that one page.
 */
export function localPullUrl(publicUrl: string, projectId: string, number: number, token?: string): string {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${publicUrl}/forge/${encodeURIComponent(projectId)}/pulls/${number}${query}`;
}
export { forgeClients, type ForgeClients, type GitlabClient } from './forge-clients.js';
