import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import type { OperationSpec } from '../openapi/operation.js';
import { KeyDomainParams } from '../openapi/parameters.js';
import * as v from 'valibot';
import { IndexRunSchema, IndexRunStatusSchema, PageBody, PageView, SearchBody, SearchHitSchema } from './schema.js';

/** Search, pages and the indexing run of a domain (router.ts), from the schemas the routes validate and answer with. */
export const searchOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/discovery/v1/search/{domain}',
    operationId: 'search',
    summary: 'Search the indexed docs (the assistant’s per-organisation limit)',
    description:
      'Results are pages, best first: each page appears once, shown by its best-matching chunk, so `pageSize` counts pages ' +
      'and one long page cannot fill the list. The embedded index ranks a page by the mean of its whole-page and best-chunk ' +
      'keyword scores (BM25 with title, heading and path weights); Qdrant ranks a page by its best chunk. Spends a unit of the ' +
      'organisation’s hourly limit only when answered 200 (an empty list included): a search refused with any 4xx or 5xx spends nothing ' +
      'and carries no `RateLimit-*` headers.',
    security: 'assistant',
    params: { path: KeyDomainParams },
    body: SearchBody,
    responses: {
      200: {
        description: 'The best pages, one result each',
        body: v.array(SearchHitSchema),
        headers: {
          ...RATE_LIMIT_HEADERS,
          'X-Search-Id': { description: 'The id to report a click on a result with (`POST /discovery/v1/search/{domain}/click`).', schema: { type: 'string' } },
        },
      },
    },
    errors: [...AUTHENTICATED_POST_ERRORS, 429, 502],
  },
  {
    method: 'post',
    path: '/discovery/v1/page/{domain}',
    operationId: 'getPage',
    summary: 'A page of the indexed docs',
    description:
      'Spends a unit of the organisation’s hourly assistant limit only when answered 200: a page that is not there (404) or any other ' +
      'refusal spends nothing and carries no `RateLimit-*` headers.',
    security: 'assistant',
    params: { path: KeyDomainParams },
    body: PageBody,
    responses: { 200: { description: 'The page', body: PageView, headers: RATE_LIMIT_HEADERS } },
    errors: [...AUTHENTICATED_POST_ERRORS, 429, 502],
  },
  {
    method: 'post',
    path: '/v1/admin/domains/{domain}/index',
    operationId: 'startIndexing',
    summary: 'Index the domain’s docs now (or join the run already going, which then indexes again what changed since it began)',
    security: 'admin',
    params: { path: KeyDomainParams },
    responses: { 202: { description: 'The indexing run', body: IndexRunSchema } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/admin/domains/{domain}/index',
    operationId: 'getIndexing',
    summary: 'The latest indexing run of the domain: status, progress while running, result once completed',
    security: 'admin',
    params: { path: KeyDomainParams },
    responses: { 200: { description: 'The run', body: IndexRunStatusSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
];
