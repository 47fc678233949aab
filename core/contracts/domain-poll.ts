/**
 * The domain-poll workflow's contract: what a domain's Temporal Schedule starts every `pollMinutes`,
 * and the ids the API, the CLI and the worker share. Imports nothing, so callers never load workflow code.
 */

export const DOMAIN_POLL_WORKFLOW = 'domainPollWorkflow';
export type DomainPollWorkflow = (input: DomainPollInput) => Promise<DomainPollResult>;

/** Only the id: the poll reads the domain's source and branch from Quire's store when it runs. */
export interface DomainPollInput {
  domainId: string;
}

/**
 * What one poll did: started (or joined) an index run for a new head, found the head indexed
 * already, left a head whose index run failed until its backoff ends (`retryAt`, an ISO instant),
 * or skipped and says why. Small: it is the poll's result.
 */
export type DomainPollResult =
  | { outcome: 'indexing'; head: string; lastIndexed: string | null; runId: string }
  | { outcome: 'unchanged'; head: string }
  | { outcome: 'backoff'; head: string; failures: number; retryAt: string }
  | { outcome: 'skipped'; reason: string };

/** One schedule per domain, its id readable in the Temporal UI. */
export function domainPollScheduleId(domainId: string): string {
  return `quire-poll-${domainId}`;
}

/** The id of the poll workflows the schedule starts (Temporal appends the firing time). */
export function domainPollWorkflowId(domainId: string): string {
  return `quire-poll-run-${domainId}`;
}
