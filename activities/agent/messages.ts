import type { JobMessage } from '../../core/contracts/agent-job.js';
import type { ActivityServices } from '../services.js';
import { AGENT_ERROR, permanent } from './errors.js';

export type TurnMessagesDeps = Pick<ActivityServices, 'jobs'>;

/**
 * The prompts of a turn's messages, read from the job store: only their ids travel through
 * workflow history. A message the store does not hold fails the turn for good (nothing to run).
 */
export async function turnMessages(services: TurnMessagesDeps, input: { projectId: string; jobId: string; messages: Array<{ id: string }> }): Promise<JobMessage[]> {
  const ids = input.messages.map((m) => m.id);
  const found = await services.jobs.getMessages(input.projectId, input.jobId, ids);
  const missing = ids.filter((id) => !found.some((m) => m.id === id));
  if (missing.length > 0) throw permanent(AGENT_ERROR.messageMissing, `the job store holds no prompt for message ${missing.join(', ')} of job ${input.jobId}`);
  return found;
}
