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
