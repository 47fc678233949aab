import * as v from 'valibot';
import { ERROR_CONTENT, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import type { OperationSpec } from '../openapi/operation.js';
import { DomainIdParams } from '../openapi/parameters.js';

const LLMS = 'The llms.txt format (llmstxt.org): `# site`, a `> summary`, one `## section` per navigation trail, `- [Title](url): description` lines.';
const FULL = 'Every listed page as `# Title`, `Source: url` and its Markdown, after the same header.';
const IfNoneMatch = v.object({ 'If-None-Match': v.optional(v.pipe(v.string(), v.description('An ETag of an earlier answer.'))) });

const file = (path: string, operationId: string, summary: string, description: string): OperationSpec => ({
  method: 'get',
  path,
  operationId,
  summary,
  description:
    `${description} Public like a site's own llms.txt: no key; only pages without access groups; derived from what the ` +
    "domain's index holds, so the indexer's searchable-page rules apply; rendered once per re-index. Spends a unit of the " +
    "owning organisation's per-IP assistant limit only when served (200 or 304): a request refused with any 4xx or 5xx " +
    'spends nothing and carries no `RateLimit-*` headers.',
  tags: ['ai-tools'],
  // Public: no key at all (the document has no default security to override).
  security: [],
  params: { path: DomainIdParams, header: IfNoneMatch },
  responses: {
    200: {
      description: summary,
      headers: {
        ...RATE_LIMIT_HEADERS,
        ETag: { description: 'Changes when the domain is re-indexed or its base URL changes.', schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string', example: 'public, max-age=300' } },
      },
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    304: { description: 'Not modified since the ETag given in `If-None-Match`.', headers: RATE_LIMIT_HEADERS },
    404: { description: 'Unknown domain.', content: ERROR_CONTENT },
    429: { description: 'The per-IP limit is spent.', content: ERROR_CONTENT, headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
    500: { description: 'Internal error.', content: ERROR_CONTENT },
    503: { description: 'The tenant store, the rate-limit store or the search engine cannot be reached.', content: ERROR_CONTENT },
  },
});

/** llms.txt and llms-full.txt of each domain (router.ts). */
export const llmsOperations: OperationSpec[] = [
  file('/discovery/v1/llms/{domain}.txt', 'llmsTxt', "The domain's llms.txt", LLMS),
  file('/discovery/v1/llms/{domain}/llms.txt', 'llmsTxtAtRoot', "The domain's llms.txt (site-root form)", LLMS),
  file('/discovery/v1/llms/{domain}/llms-full.txt', 'llmsFullTxt', "The domain's llms-full.txt", FULL),
];
