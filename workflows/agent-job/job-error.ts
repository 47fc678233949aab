import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import type { JobError } from '../../core/jobs/job-record.js';

/** Turns a failed turn into the job's public error; codes are the snake_case failure types. */
export function jobErrorOf(err: unknown): JobError {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const type = cause.type ?? 'AgentFailed';
    return { code: type.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), message: cause.message };
  }
  if (cause instanceof TimeoutFailure) return { code: 'turn_timed_out', message: 'the agent turn ran out of time' };
  return { code: 'agent_failed', message: cause instanceof Error ? cause.message : 'the agent turn failed' };
}
