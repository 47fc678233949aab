import { ApplicationFailure } from '@temporalio/common';
import { ModelError, PermanentModelError, TransientModelError } from '../core/model/index.js';
import { AGENT_ERROR, errorMessage, permanent, transient } from './agent/errors.js';

/**
 * The one place model errors become Temporal failures: permanent ones are
 * non-retryable, transient ones are retried by the activity's retry policy,
 * and a provider's Retry-After becomes the next retry's delay. The model port
 * never retries, so Temporal's is the only retry loop.
 */
export function modelFailure(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof PermanentModelError) return permanent(err.badCredentials ? AGENT_ERROR.badCredentials : AGENT_ERROR.modelRequestInvalid, err.message);
  if (err instanceof TransientModelError) return transient(AGENT_ERROR.modelUnavailable, err.message, err.retryAfterMs);
  const message = err instanceof ModelError ? err.message : `model request failed: ${errorMessage(err).split('\n')[0]!.slice(0, 300)}`;
  return transient(AGENT_ERROR.modelUnavailable, message);
}
