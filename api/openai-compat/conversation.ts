import type { Conversation, Turn } from '../assistant/index.js';
import { textOf, type ChatMessage } from './schema.js';

/**
 * The question (the last user message) and the user and assistant turns
 * before it. System, developer and tool messages never reach the model: the
 * system prompt is Quire's, as on the assistant endpoints.
 */
export function conversationFrom(messages: ChatMessage[]): Conversation {
  const last = messages.at(-1);
  const earlier: Turn[] = [];
  for (const m of messages.slice(0, -1)) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const text = textOf(m).trim();
    if (text) earlier.push({ role: m.role, text });
  }
  return { question: last ? textOf(last).trim() : '', earlier };
}
