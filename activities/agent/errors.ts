import { ApplicationFailure } from '@temporalio/common';
import { APIError, APIUserAbortError } from 'openai';
import { AGENT_ERROR } from '../../core/contracts/agent-job.js';

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

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Classifies an HTTP status from a model provider or a forge; `what` names the service in the message. */
export function classifyHttpStatus(
  status: number | undefined,
  message: string,
  retryAfter: string | null | undefined,
  kind: 'model' | 'forge',
): ApplicationFailure {
  const unavailable = kind === 'model' ? AGENT_ERROR.modelUnavailable : AGENT_ERROR.forgeUnavailable;
  if (status === undefined) return transient(unavailable, message);
  if (status === 429 || status >= 500 || status === 408) return transient(unavailable, message, retryAfterMs(retryAfter));
  if (status === 401 || status === 403) return permanent(AGENT_ERROR.badCredentials, message);
  if (kind === 'forge' && status === 404) return permanent(AGENT_ERROR.repositoryNotFound, message);
  if (kind === 'model') return permanent(AGENT_ERROR.modelRequestInvalid, message);
  return permanent(AGENT_ERROR.forgeMisconfigured, message);
}

/** Turns an error from the `openai` client into the failure Temporal should see. */
export function classifyModelError(err: unknown): Error {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof APIUserAbortError) return transient(AGENT_ERROR.cancelled, 'the model request was cancelled');
  if (err instanceof APIError) {
    const status = typeof err.status === 'number' ? err.status : undefined;
    const reason = status === undefined ? 'the model endpoint could not be reached' : `the model endpoint answered ${status}`;
    return classifyHttpStatus(status, `${reason}: ${firstLine(err.message)}`, err.headers?.get('retry-after'), 'model');
  }
  return transient(AGENT_ERROR.modelUnavailable, `model request failed: ${firstLine(errorMessage(err))}`);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.slice(0, 300);
}
