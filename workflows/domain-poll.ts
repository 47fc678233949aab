import { proxyActivities } from '@temporalio/workflow';
import type { PollActivities } from '../activities/indexing/index.js';
import type { DomainPollInput, DomainPollResult } from '../core/contracts/domain-poll.js';

const polls = proxyActivities<PollActivities>({
  startToCloseTimeout: '2 minutes',
  // Reading a ref and joining the domain's one index run are safe to repeat; a refused source is not retried.
  retry: { initialInterval: '5 seconds', maximumInterval: '30 seconds', maximumAttempts: 3, nonRetryableErrorTypes: ['PrivateTargetRefused'] },
  summary: 'read the docs branch head, index it when new',
});

/**
 * What a domain's poll schedule starts every `pollMinutes`: one activity that reads the docs branch
 * head with `git ls-remote` and starts (or joins) the domain's index run only when the head is not
 * the commit last indexed; a head whose run failed is tried again only once its backoff is over.
 * Only the domain's id passes through this history.
 */
export async function domainPollWorkflow(input: DomainPollInput): Promise<DomainPollResult> {
  return polls.pollDomainBranch(input);
}
