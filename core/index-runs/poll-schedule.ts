import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type ScheduleOptions, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { DOMAIN_POLL_WORKFLOW, domainPollScheduleId, domainPollWorkflowId, type DomainPollWorkflow } from '../contracts/domain-poll.js';
import { DOMAIN_ID } from '../contracts/search-attributes.js';
import type { Domain } from '../tenants/types.js';

/** A poll reads one ref and may start a run: a minute is ample, and a stuck one never blocks the next firing. */
const POLL_TIMEOUT = '5 minutes';
/** Polls missed while Temporal was down are made up only this long after their time, never as a burst. */
const CATCHUP_WINDOW = '10 minutes';

/**
 * The Temporal Schedule that polls a domain's docs branch, as automations' schedules are made: an id
 * derived from the domain's, the domain in its memo and search attribute, an action carrying only the
 * id. Overlap SKIP: a poll still going when the next is due drops the next.
 */
export function domainPollScheduleOptions(domainId: string, pollMinutes: number, taskQueue: string): ScheduleOptions<ScheduleOptionsStartWorkflowAction<DomainPollWorkflow>> {
  return {
    scheduleId: domainPollScheduleId(domainId),
    spec: { intervals: [{ every: pollMinutes * 60_000 }] },
    action: {
      type: 'startWorkflow',
      workflowType: DOMAIN_POLL_WORKFLOW,
      workflowId: domainPollWorkflowId(domainId),
      taskQueue,
      args: [{ domainId }],
      workflowExecutionTimeout: POLL_TIMEOUT,
      typedSearchAttributes: [{ key: DOMAIN_ID, value: domainId }],
      staticSummary: `poll the docs branch of domain ${domainId}`,
    },
    policies: { overlap: 'SKIP', catchupWindow: CATCHUP_WINDOW, pauseOnFailure: false },
    state: { note: `every ${pollMinutes} minutes (the domain's pollMinutes)` },
    memo: { domainId },
    typedSearchAttributes: [{ key: DOMAIN_ID, value: domainId }],
  };
}

/**
 * Makes the domain's poll schedule follow its `pollMinutes`: created when set, its interval changed
 * when changed, deleted when cleared (already gone is fine). Idempotent: repeating it after a failure
 * (Temporal down) finishes what the first call began.
 */
export async function syncDomainPollSchedule(temporal: Client, taskQueue: string, domain: Pick<Domain, 'id' | 'pollMinutes'>): Promise<void> {
  if (!domain.pollMinutes) return deleteDomainPollSchedule(temporal, domain.id);
  const options = domainPollScheduleOptions(domain.id, domain.pollMinutes, taskQueue);
  try {
    await temporal.schedule.create(options);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    const { scheduleId: _id, memo: _memo, ...changed } = options;
    await temporal.schedule.getHandle(options.scheduleId).update<DomainPollWorkflow>((previous) => ({ ...changed, state: { ...changed.state, paused: previous.state.paused } }));
  }
}

/** Deletes the domain's poll schedule; one that never was, or is gone already, is fine. */
export async function deleteDomainPollSchedule(temporal: Client, domainId: string): Promise<void> {
  try {
    await temporal.schedule.getHandle(domainPollScheduleId(domainId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** Makes every given domain's poll schedule follow its `pollMinutes` (the seed file's domains, at start). */
export async function syncDomainPollSchedules(temporal: Client, taskQueue: string, domains: Array<Pick<Domain, 'id' | 'pollMinutes'>>): Promise<void> {
  for (const domain of domains) await syncDomainPollSchedule(temporal, taskQueue, domain);
}

/** What became of one domain's poll schedule when a worker looked at it: see `followTaskQueue`. */
export interface PollScheduleMove {
  domainId: string;
  /** The queue its firings went to; undefined when it was missing (and was made). */
  from: string | undefined;
}

/**
 * Brings the poll schedules of `domains` (those with a `pollMinutes`) to `taskQueue`: a schedule that
 * fires on another queue (the deployment moved to this one, whose workers alone poll it) is moved,
 * keeping its interval and an operator's pause; a missing one (its creation failed while Temporal
 * was down) is made. One that fires here already is left alone, so workers starting together change
 * nothing twice. Returns the schedules moved or made.
 */
export async function followTaskQueue(temporal: Client, taskQueue: string, domains: Array<Pick<Domain, 'id' | 'pollMinutes'>>): Promise<PollScheduleMove[]> {
  const moves: PollScheduleMove[] = [];
  for (const domain of domains) {
    if (!domain.pollMinutes) continue;
    const from = await firingQueue(temporal, domain.id);
    if (from === taskQueue) continue;
    await syncDomainPollSchedule(temporal, taskQueue, domain);
    moves.push({ domainId: domain.id, from });
  }
  return moves;
}

/** The task queue a domain's poll schedule starts its polls on; undefined when there is no schedule. */
async function firingQueue(temporal: Client, domainId: string): Promise<string | undefined> {
  try {
    const { action } = await temporal.schedule.getHandle(domainPollScheduleId(domainId)).describe();
    return action.type === 'startWorkflow' ? action.taskQueue : undefined;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  }
}
