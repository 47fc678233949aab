import * as v from 'valibot';
import type { JobMessage } from '../contracts/agent-job.js';
import type { JobStore } from './job-store.js';

/** A message the client sent before the job's first prompt, shown to the model as it was. */
export interface EarlierMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * What a client may set around a job's prompts (Mintlify's v1 `messages[]`): text added to the
 * system prompt of every turn, and the conversation that came before the first prompt.
 */
export interface JobPreamble {
  /** Appended to the agent's system prompt; empty for none. */
  system: string;
  /** Shown to the model before the first turn's prompt. */
  earlier: EarlierMessage[];
}

const JobPreambleSchema = v.object({
  system: v.string(),
  earlier: v.array(v.object({ role: v.picklist(['user', 'assistant']), content: v.string() })),
});

/**
 * The preamble rides in the job store's message table under this id, so it stays out of workflow
 * history like every prompt and is removed with the job. The API names messages with a UUID or
 * `key:…`, so no message of a client can take this id.
 */
const PREAMBLE_MESSAGE_ID = 'quire:preamble';

/** The message a job's preamble is kept as (the job store's `create` takes it with the first prompt). */
export function preambleMessage(preamble: JobPreamble): JobMessage {
  return { id: PREAMBLE_MESSAGE_ID, prompt: JSON.stringify(preamble) };
}

/** Keeps a job's preamble; the first write wins, like a message's. */
export async function putJobPreamble(store: JobStore, projectId: string, jobId: string, preamble: JobPreamble): Promise<void> {
  await store.putMessage(projectId, jobId, preambleMessage(preamble));
}

/** The job's preamble, or undefined when its client set none. */
export async function readJobPreamble(store: JobStore, projectId: string, jobId: string): Promise<JobPreamble | undefined> {
  const [stored] = await store.getMessages(projectId, jobId, [PREAMBLE_MESSAGE_ID]);
  if (!stored) return undefined;
  try {
    const parsed = v.safeParse(JobPreambleSchema, JSON.parse(stored.prompt));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}
