import os from 'node:os';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { indexWorkflowId, type DomainPollInput, type DomainPollResult, type IndexDomainWorkflow } from '../../core/contracts/index.js';
import { deleteDomainPollSchedule, startIndexRun } from '../../core/index-runs/index.js';
import { scrubSecrets } from '../../core/logger.js';
import { remoteHead } from '../../core/retrieval/index.js';
import { activitySignal } from '../activity-context.js';
import type { ActivityServices } from '../services.js';
import { sourceGuard } from './source-guard.js';

/** What a poll uses: the domain's record, git, and Temporal to read the last run and start the next. */
export type PollActivityDeps = Pick<ActivityServices, 'tenants' | 'temporal' | 'config' | 'logger'>;

/**
 * The commit the domain's latest index run indexed (its result records it), or why there is none to
 * compare with: a run still going (it, or the poll after it, sees the new head), or none that completed.
 */
async function lastIndexed(temporal: Client, domainId: string): Promise<{ running: true } | { running: false; commit: string | null }> {
  try {
    const described = await temporal.workflow.getHandle(indexWorkflowId(domainId)).describe();
    if (described.status.name === 'RUNNING') return { running: true };
    if (described.status.name !== 'COMPLETED') return { running: false, commit: null };
    const result = await temporal.workflow.getHandle<IndexDomainWorkflow>(described.workflowId, described.runId).result();
    return { running: false, commit: result.commit ?? null };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { running: false, commit: null };
    throw err;
  }
}

/** The activity a domain's poll schedule runs: reads the branch head cheaply and starts indexing only for a new one. */
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
      const last = await lastIndexed(temporal, domain.id);
      if (last.running) return { outcome: 'skipped', reason: 'an index run is under way: the next poll compares with what it indexed' };
      if (last.commit === head) return { outcome: 'unchanged', head };
      const run = await startIndexRun(temporal, config.temporal.taskQueue, domain.id);
      services.logger.info({ domainId: domain.id, head, lastIndexed: last.commit }, 'poll found a new head: indexing');
      return { outcome: 'indexing', head, lastIndexed: last.commit, runId: run.runId };
    },
  };
}

export type PollActivities = ReturnType<typeof createPollActivities>;
