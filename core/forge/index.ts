export { PullStore, type PullRecord, type NewPull } from './pull-store.js';
export { branchDiff } from './branch-diff.js';

/** Where the API serves a local pull request; the activity hands this out as the job's prLink. */
export function localPullUrl(publicUrl: string, projectId: string, number: number): string {
  return `${publicUrl}/forge/${encodeURIComponent(projectId)}/pulls/${number}`;
}
