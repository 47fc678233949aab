import os from 'node:os';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { indexWorkflowId, type DomainPollInput, type DomainPollResult, type IndexDomainWorkflow } from '../../core/contracts/index.js';
import { deleteDomainPollSchedule, pollBackoff, polledRunMemo, pollRetryDue, startIndexRun, type PollBackoff } from '../../core/index-runs/index.js';
import { scrubSecrets } from '../../core/logger.js';
import { remoteHead } from '../../core/retrieval/index.js';
import { activitySignal } from '../activity-context.js';
import type { ActivityServices } from '../services.js';
import { sourceGuard } from './source-guard.js';

/** What a poll uses: the domain's record, git, and Temporal to read the last run and start the next. */
export type PollActivityDeps = Pick<ActivityServices, 'tenants' | 'temporal' | 'config' | 'logger'>;

/**
 * What the domain's latest index run says to a poll: it is still going (it, or the poll after it,
 * sees the new head), or the commit it indexed (null when it did not complete), and for a run a
 * poll started that failed or timed out, the head it was for and when the poll tries that head again.
 */
async function latestRun(temporal: Client, domainId: string, pollMinutes: number): Promise<{ running: true } | { running: false; commit: string | null; backoff?: PollBackoff }> {
  try {
    const described = await temporal.workflow.getHandle(indexWorkflowId(domainId)).describe();
    if (described.status.name === 'RUNNING') return { running: true };
    if (described.status.name === 'FAILED' || described.status.name === 'TIMED_OUT') {
      // Terminated or canceled runs were stopped by someone: the next poll tries again at once, as before.
      const polled = polledRunMemo(described.memo);
      return { running: false, commit: null, ...(polled ? { backoff: pollBackoff(polled, described.startTime, pollMinutes) } : {}) };
    }
    if (described.status.name !== 'COMPLETED') return { running: false, commit: null };
    const result = await temporal.workflow.getHandle<IndexDomainWorkflow>(described.workflowId, described.runId).result();
    return { running: false, commit: result.commit ?? null };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { running: false, commit: null };
    throw err;
  }
}

/**
 * The activity a domain's poll schedule runs: reads the branch head cheaply and starts indexing only
 * for a head not indexed, and for the head of a failed run only once its backoff is over.
 */
export function createPollActivities(services: PollActivityDeps) {
  return {
    async pollDomainBranch(input: DomainPollInput): Promise<DomainPollResult> {
      const { temporal, config } = services;
      const domain = await services.tenants.getDomain(input.domainId);
      if (!domain?.pollMinutes) {
        // A schedule left behind (its domain deleted, or its polling cleared, while Temporal was away) stops firing.
        await deleteDomainPollSchedule(temporal, input.domainId);
        return { outcome: 'skipped', reason: domain ? 'the domain is no longer polled' : 'the domain no longer exists' };
      }
      const guard = await sourceGuard(config, domain);
      let head: string | undefined;
      try {
        const signal = activitySignal();
        // Run outside any repository: a work tree's own config (url.insteadOf) must not steer the command.
        head = await remoteHead(domain.source, domain.branch, os.tmpdir(), { ...guard, ...(signal ? { signal } : {}) });
      } catch (err) {
        // Clone URLs may carry credentials; git repeats them in its messages.
        throw new Error(`cannot read the branch head of '${domain.id}': ${scrubSecrets(err instanceof Error ? err.message : String(err))}`);
      }
      if (!head) return { outcome: 'skipped', reason: domain.branch ? `the source has no branch '${domain.branch}'` : 'the source is not a git repository' };
      const last = await latestRun(temporal, domain.id, domain.pollMinutes);
      if (last.running) return { outcome: 'skipped', reason: 'an index run is under way: the next poll compares with what it indexed' };
      if (last.commit === head) return { outcome: 'unchanged', head };
      // The head a failed run was for waits out its backoff; a new head is tried at once.
      const failed = last.backoff?.head === head ? last.backoff : undefined;
      if (failed && !pollRetryDue(failed, domain.pollMinutes, new Date())) return { outcome: 'backoff', head, failures: failed.failures, retryAt: failed.retryAt.toISOString() };
      const run = await startIndexRun(temporal, config.temporal.taskQueue, domain.id, { polledHead: head, attempt: failed ? failed.failures + 1 : 1 });
      services.logger.info({ domainId: domain.id, head, lastIndexed: last.commit, ...(failed ? { failedBefore: failed.failures } : {}) }, 'poll found a head to index: indexing');
      return { outcome: 'indexing', head, lastIndexed: last.commit, runId: run.runId };
    },
  };
}

export type PollActivities = ReturnType<typeof createPollActivities>;
