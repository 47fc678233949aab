import type { ModelPort } from '../../core/model/index.js';
import { retrievalQuery, type Conversation } from './conversation.js';
import { truncateToTokens } from './token-budget.js';

/**
 * How the retrieval query came about: `rewritten` by the model; `unchanged` when the model gave
 * nothing usable; `timeout` or `failed` when it did not answer within its budget or failed, so
 * the question itself was searched.
 */
export type RewriteStatus = 'rewritten' | 'unchanged' | 'timeout' | 'failed';

export interface QueryRewrite {
  /** What retrieval searches for. */
  query: string;
  /** Absent when no rewrite was asked for (no chat model, or turned off). */
  status?: RewriteStatus;
}

/** Turns the reader's question, with the thread before it, into a search query. */
export interface QueryRewriter {
  rewrite(conversation: Conversation, signal?: AbortSignal): Promise<QueryRewrite>;
}

/** Without a model (or with the rewrite turned off): the question, sharpened by the previous one when short. */
export const questionAsQuery: QueryRewriter = {
  rewrite: (conversation) => Promise.resolve({ query: retrievalQuery(conversation) }),
};

/** The longest query a rewrite may give; a longer reply is not a query. */
const MAX_QUERY_CHARS = 300;
/** Earlier turns the rewrite reads, newest kept; their tokens at most. */
const HISTORY_TOKENS = 600;

const INSTRUCTIONS = [
  'You turn a reader\'s question about a product\'s documentation into one search query for that documentation.',
  'Resolve references to earlier turns ("it", "that", "and on Windows?") so the query stands on its own.',
  'Use the words the documentation would use (feature names, settings, page titles); keep names and code as written.',
  'Reply with the query alone on one line: no quotes, no explanation.',
].join('\n');

/** The model's reply as a query: its first non-empty line, without quotes or a `Query:` label. */
function queryOf(reply: string | null | undefined): string | undefined {
  const line = (reply ?? '').split('\n').map((l) => l.trim()).find(Boolean);
  if (!line) return undefined;
  const query = line.replace(/^(search )?query:\s*/i, '').replace(/^["'`]+|["'`]+$/g, '').trim();
  return query && query.length <= MAX_QUERY_CHARS ? query : undefined;
}

function rewriteMessages(conversation: Conversation) {
  const history = conversation.earlier
    .slice(-4)
    .map((t) => `${t.role === 'user' ? 'Reader' : 'Assistant'}: ${t.text}`)
    .join('\n');
  const question = truncateToTokens(conversation.question, 500);
  const content = history ? `Earlier in the conversation:\n${truncateToTokens(history, HISTORY_TOKENS)}\n\nQuestion: ${question}` : `Question: ${question}`;
  return [
    { role: 'system' as const, content: INSTRUCTIONS },
    { role: 'user' as const, content },
  ];
}

/**
 * One bounded model call before retrieval. It never fails the answer: past
 * `timeoutMs`, or on any model error, retrieval searches the question
 * itself and the status says why.
 */
export function modelQueryRewriter(port: Pick<ModelPort, 'chat'>, model: string, timeoutMs: number): QueryRewriter {
  return {
    async rewrite(conversation, signal) {
      const fallback = retrievalQuery(conversation);
      if (!conversation.question) return { query: fallback, status: 'unchanged' };
      const budget = AbortSignal.timeout(timeoutMs);
      try {
        const completion = await port.chat({
          model,
          messages: rewriteMessages(conversation),
          tools: [],
          signal: signal ? AbortSignal.any([signal, budget]) : budget,
        });
        const query = queryOf(completion.choices[0]?.message.content);
        return query ? { query, status: 'rewritten' } : { query: fallback, status: 'unchanged' };
      } catch {
        // Slow, down or refusing: the reader's own words still find the pages.
        return { query: fallback, status: budget.aborted ? 'timeout' : 'failed' };
      }
    },
  };
}
