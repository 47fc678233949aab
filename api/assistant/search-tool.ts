import type { SearchHit } from '../../core/retrieval/index.js';
import { passageUrl } from './citations.js';

/** The retrieval as the clients written for Mintlify's stream read it: a `search` tool call and its result. */
export const SEARCH_TOOL = 'search';

/** One hit of the `search` tool result; `url` is absolute on the domain's public site. */
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

/** The tool call for the passages the answer is built from, numbered like the citations. */
export function searchCall(toolCallId: string, query: string, baseUrl: string, passages: SearchHit[]): SearchCall {
  return {
    toolCallId,
    query,
    hits: passages.map((hit) => ({ path: hit.path, url: passageUrl(baseUrl, hit), content: hit.content, metadata: hit.metadata })),
  };
}
