import type { ThreadTranscript } from '../../core/threads/index.js';
import { messageText, type V1Message, type V2Message } from './schema.js';
import { withoutSuggestions } from './suggestions.js';

/** A citation link as the answer service writes it: `[[2]](https://…)`. */
const CITATION_LINK = /\[\[(\d{1,3})\]\]\([^)\s]*\)/g;

/** An earlier answer as the model reads it: citation markers without their links, no suggestions block. */
function earlierAnswer(text: string): string {
  return withoutSuggestions(text).replace(CITATION_LINK, '[$1]');
}

export interface Turn {
  role: 'user' | 'assistant';
  text: string;
}

/** The question and the turns before it, oldest first. */
export interface Conversation {
  question: string;
  earlier: Turn[];
}

/**
 * Splits the request into the latest question and the history. The client's
 * own history wins (useChat sends it all); a caller that sends only the new
 * question gets the stored thread as history. Client `system` and `data`
 * messages never reach the model: the system prompt is ours. Tool parts the
 * client sends back (the `search` step) are not text and are left out, and so
 * are the `suggestions` blocks and citation links of earlier answers.
 */
export function conversationOf(messages: Array<V2Message | V1Message>, thread: ThreadTranscript | undefined): Conversation {
  const last = messages.at(-1);
  const question = last ? messageText(last).trim() : '';
  const before = messages.slice(0, -1);
  const earlier: Turn[] = [];
  if (before.length > 0) {
    for (const m of before) {
      if (m.role !== 'user' && m.role !== 'assistant') continue;
      const text = m.role === 'assistant' ? earlierAnswer(messageText(m)) : messageText(m).trim();
      if (text) earlier.push({ role: m.role, text });
    }
  } else if (thread) {
    for (const x of thread.exchanges) {
      earlier.push({ role: 'user', text: x.question });
      const answer = earlierAnswer(x.answer);
      if (answer) earlier.push({ role: 'assistant', text: answer });
    }
  }
  return { question, earlier };
}

const SHORT_QUESTION_WORDS = 8;

/**
 * The retrieval query: the question, sharpened by the previous user turn when
 * the question is short enough to lean on it ("and on Windows?").
 */
export function retrievalQuery(conversation: Conversation): string {
  const { question, earlier } = conversation;
  const previous = [...earlier].reverse().find((t) => t.role === 'user');
  const words = question.split(/\s+/).filter(Boolean).length;
  if (!previous || words >= SHORT_QUESTION_WORDS) return question.slice(0, 2000);
  return `${question} ${previous.text}`.slice(0, 2000);
}
