import type { ChatTool } from '../../core/model/index.js';
import type { SearchHit } from '../../core/retrieval/index.js';
import type { Citation } from './answer-writer.js';

/** The retrieval as the clients written for Mintlify's stream read it: a `search` tool call and its result. */
export const SEARCH_TOOL = 'search';

/** One page of the `search` tool result; `url` is absolute on the domain's public site (its best section). */
export interface SearchToolHit {
  path: string;
  url: string;
  content: string;
  metadata: SearchHit['metadata'];
}

export interface SearchCall {
  toolCallId: string;
  query: string;
  hits: SearchToolHit[];
}

/**
 * The tool call for the passages the answer is built from: one result per
 * cited page, numbered like the citations, its passages joined in rank order
 * and its metadata its best section's.
 */
export function searchCall(toolCallId: string, query: string, citations: Citation[], passages: SearchHit[]): SearchCall {
  const hits = citations.flatMap((c): SearchToolHit[] => {
    const own = passages.filter((hit) => hit.path === c.path);
    const best = own[0];
    return best ? [{ path: c.path, url: c.url, content: own.map((hit) => hit.content.trim()).join('\n\n'), metadata: best.metadata }] : [];
  });
  return { toolCallId, query, hits };
}

/** The `search` tool as the model is offered it (Chat Completions function tool). */
export function searchToolDefinition(maxSearches: number): ChatTool {
  return {
    type: 'function',
    function: {
      name: SEARCH_TOOL,
      description:
        `Searches this documentation and returns passages numbered like the ones you have, new pages only. ` +
        `Use it when the passages you have do not answer the question; at most ${maxSearches} searches per answer.`,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to look for, in the words the documentation would use.' } },
        required: ['query'],
        additionalProperties: false,
      },
    },
  };
}
