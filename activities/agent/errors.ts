import { ApplicationFailure } from '@temporalio/common';
import { AGENT_ERROR } from '../../core/contracts/agent-job.js';
import { retryAfterMs } from '../../core/http/retry-after.js';

// The failure type names are the agent-job contract's; the workflow lists the non-retryable ones.
export { AGENT_ERROR };

/** A failure the job cannot recover from by retrying (the workflow ends the job as failed with this message). */
export function permanent(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true });
}

/**
 * The longest a provider's or forge's Retry-After delays the next attempt. A provider whose quota
 * is spent may ask for a day; honoured, the job would stay active and silent for days (the retry
 * policy's attempts, each a day apart). Capped, the attempts run out within the hour and the job
 * fails saying why, and a follow-up tries again.
 */
export const MAX_RETRY_DELAY_MS = 5 * 60_000;

/** A failure Temporal retries; `retryAfterMs` (from Retry-After) overrides the backoff, up to `MAX_RETRY_DELAY_MS`. */
export function transient(type: string, message: string, retryAfterMs?: number): ApplicationFailure {
  if (retryAfterMs === undefined) return ApplicationFailure.create({ type, message, nonRetryable: false });
  const capped = retryAfterMs > MAX_RETRY_DELAY_MS;
  return ApplicationFailure.create({
    type,
    message: capped ? `${message} (asked to wait ${Math.round(retryAfterMs / 1000)} s; retried after ${MAX_RETRY_DELAY_MS / 1000} s)` : message,
    nonRetryable: false,
    nextRetryDelay: Math.min(retryAfterMs, MAX_RETRY_DELAY_MS),
  });
}

/** Classifies an HTTP status from a forge (model errors are classified by the model port). */
export function classifyHttpStatus(status: number | undefined, message: string, retryAfter: string | null | undefined): ApplicationFailure {
  if (status === undefined) return transient(AGENT_ERROR.forgeUnavailable, message);
  if (status === 429 || status >= 500 || status === 408) return transient(AGENT_ERROR.forgeUnavailable, message, retryAfterMs(retryAfter));
  if (status === 401 || status === 403) return permanent(AGENT_ERROR.badCredentials, message);
  if (status === 404) return permanent(AGENT_ERROR.repositoryNotFound, message);
  return permanent(AGENT_ERROR.forgeMisconfigured, message);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
