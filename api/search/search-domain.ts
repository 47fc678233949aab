import type * as v from 'valibot';
import type { DocIndex, SearchHit } from '../../core/retrieval/index.js';
import type { SearchBody } from './schema.js';

/**
 * What `POST /discovery/v1/search/{domain}` answers for a parsed body. One
 * function, so the retrieval eval measures exactly what the endpoint returns.
 */
export function searchDomain(docIndex: DocIndex, domain: { id: string; language?: string }, body: v.InferOutput<typeof SearchBody>): Promise<SearchHit[]> {
  return docIndex.search(domain.id, {
    query: body.query,
    ...(domain.language ? { language: domain.language } : {}),
    pageSize: body.pageSize,
    ...(body.scoreThreshold !== undefined ? { scoreThreshold: body.scoreThreshold } : {}),
    ...(body.filter ? { filter: body.filter } : {}),
  });
}
