import type { DocIndex, SearchHit } from '../../core/retrieval/index.js';
import type { Citation } from './answer-writer.js';
import { passageUrl, relevantHits } from './citations.js';
import { CHUNKS_PER_PAGE, passageBlock } from './prompt.js';
import { searchCall, type SearchCall } from './search-tool.js';
import { estimateTokens } from './token-budget.js';

/** Why a model-driven search gave no passages: it ran past its budget, or the index failed. */
class SearchBudgetSpent extends Error {
  override name = 'SearchBudgetSpent';
}

/** Resolves as `work` does, or rejects with SearchBudgetSpent after `ms`. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new SearchBudgetSpent()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ModelSearchScope {
  docIndex: Pick<DocIndex, 'search'>;
  /** The domain searched: its language stems the query (see `SearchQuery.language`). */
  domain: { id: string; baseUrl: string; language?: string | undefined };
  pageSize: number;
  filter?: Parameters<DocIndex['search']>[1]['filter'];
  currentPath?: string | undefined;
  /** The answer's citations and prompt passages: the pages a search finds join them, numbered on. */
  citations: Citation[];
  passages: SearchHit[];
  timeoutMs: number;
  /** Tokens of passages one search may hand the model. */
  tokens: number;
  /** Each search as it finished, for the stream (its new pages only). */
  onSearch?: ((call: SearchCall) => void) | undefined;
}

/**
 * The search the model runs of its own, as the answerer calls it. Each runs
 * within `timeoutMs`; past it, or when the index fails, the model is told so
 * and answers from what it has. A page already among the answer's sources is
 * not given again: the model reads its number, the stream lists each page once.
 */
export function modelSearch(scope: ModelSearchScope): (query: string, toolCallId: string) => Promise<string> {
  return async (query, toolCallId) => {
    let hits: SearchHit[];
    try {
      const search = scope.docIndex.search(scope.domain.id, {
        query,
        ...(scope.domain.language ? { language: scope.domain.language } : {}),
        pageSize: scope.pageSize,
        chunksPerPage: CHUNKS_PER_PAGE,
        ...(scope.filter ? { filter: scope.filter } : {}),
        ...(scope.currentPath ? { currentPath: scope.currentPath } : {}),
      });
      search.catch(() => undefined);
      hits = relevantHits(await within(search, scope.timeoutMs), scope.pageSize);
    } catch (err) {
      scope.onSearch?.({ toolCallId, query, hits: [] });
      const why = err instanceof SearchBudgetSpent ? `did not finish within ${scope.timeoutMs} ms` : 'failed';
      return `The search ${why}. Answer from the passages you have.`;
    }
    const numbers = new Map(scope.citations.map((c, i) => [c.path, i + 1]));
    const known = [...new Set(hits.filter((hit) => numbers.has(hit.path)).map((hit) => numbers.get(hit.path)!))];
    const fresh: SearchHit[] = [];
    let used = 0;
    for (const hit of hits) {
      if (numbers.has(hit.path) && !fresh.some((f) => f.path === hit.path)) continue;
      const n = numbers.get(hit.path) ?? scope.citations.length + 1;
      const cost = estimateTokens(passageBlock(n, scope.domain.baseUrl, hit));
      if (used + cost > scope.tokens) continue;
      if (!numbers.has(hit.path)) {
        numbers.set(hit.path, n);
        scope.citations.push({ id: `src_${n}`, url: passageUrl(scope.domain.baseUrl, hit), title: hit.metadata.title || hit.path, path: hit.path });
      }
      fresh.push(hit);
      used += cost;
    }
    scope.passages.push(...fresh);
    const added = scope.citations.filter((c) => fresh.some((hit) => hit.path === c.path));
    scope.onSearch?.(searchCall(toolCallId, query, added, fresh));
    const again = known.length > 0 ? `Pages you already have also matched: ${known.map((n) => `[${n}]`).join('')}.` : '';
    if (fresh.length === 0) return again || 'No documentation passage matched this search.';
    const blocks = fresh.map((hit) => passageBlock(numbers.get(hit.path)!, scope.domain.baseUrl, hit));
    return [`New documentation passages:`, ...blocks, again].filter(Boolean).join('\n\n');
  };
}
