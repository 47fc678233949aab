import type { JobPreamble } from '../../../core/jobs/index.js';

interface V1Message {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A v1 create's messages as a job takes them: the prompt, and the preamble when there is one. */
export interface V1Request {
  prompt: string;
  preamble: JobPreamble | undefined;
}

/**
 * Splits Mintlify's `messages[]`: every `system` message joins the system prompt; the user messages
 * after the last assistant one are the prompt; what came before them stays, in order, as the
 * conversation the model sees first. The schema has made sure the prompt is not empty.
 */
export function fromMessages(messages: readonly V1Message[]): V1Request {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content.trim())
    .filter((text) => text !== '')
    .join('\n\n');
  const spoken = messages.flatMap((m) => (m.role === 'system' ? [] : [{ role: m.role, content: m.content }]));
  const split = spoken.findLastIndex((m) => m.role === 'assistant') + 1;
  const earlier = spoken.slice(0, split);
  const prompt = spoken
    .slice(split)
    .map((m) => m.content.trim())
    .filter((text) => text !== '')
    .join('\n\n');
  return { prompt, preamble: system !== '' || earlier.length > 0 ? { system, earlier } : undefined };
}
