import { ApplicationFailure } from '@temporalio/common';
import { AGENT_ERROR } from '../../core/contracts/agent-job.js';
import { retryAfterMs } from '../../core/http/retry-after.js';

// The failure type names are the agent-job contract's; the workflow lists the non-retryable ones.
export { AGENT_ERROR };

/** A failure the job cannot recover from by retrying (the workflow ends the job as failed with this message). */
export function permanent(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true });
}

/** A failure Temporal retries; `retryAfterMs` (from Retry-After) overrides the backoff. */
export function transient(type: string, message: string, retryAfterMs?: number): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable: false,
    ...(retryAfterMs !== undefined ? { nextRetryDelay: retryAfterMs } : {}),
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
