import { ApplicationFailure } from '@temporalio/common';
// Not the core/http barrel: the workflow bundle loads this file (for AGENT_NON_RETRYABLE) and must not load undici.
import { retryAfterMs } from '../../core/http/retry-after.js';

/**
 * Error types the agent activities throw as ApplicationFailure types. The workflow passes
 * AGENT_NON_RETRYABLE as nonRetryableErrorTypes; everything else is retried by Temporal.
 */
export const AGENT_ERROR = {
  repositoryNotFound: 'RepositoryNotFound',
  badCredentials: 'BadCredentials',
  modelRequestInvalid: 'ModelRequestInvalid',
  modelNotConfigured: 'ModelNotConfigured',
  projectNotFound: 'ProjectNotFound',
  forgeMisconfigured: 'ForgeMisconfigured',
  modelUnavailable: 'ModelUnavailable',
  forgeUnavailable: 'ForgeUnavailable',
  gitFailed: 'GitFailed',
  cancelled: 'Cancelled',
} as const;

export const AGENT_NON_RETRYABLE: readonly string[] = [
  AGENT_ERROR.repositoryNotFound,
  AGENT_ERROR.badCredentials,
  AGENT_ERROR.modelRequestInvalid,
  AGENT_ERROR.modelNotConfigured,
  AGENT_ERROR.projectNotFound,
  AGENT_ERROR.forgeMisconfigured,
];

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
