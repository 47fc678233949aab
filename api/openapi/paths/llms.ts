import { errorResponse } from '../components.js';
import type { PathItems, Schema } from '../types.js';
import { domainParameter, rateLimitHeaders, retryAfterHeaders } from './shared-headers.js';

const file = (description: string): Schema => ({
  description,
  headers: {
    ...rateLimitHeaders,
    ETag: { description: 'Changes when the domain is re-indexed or its base URL changes.', schema: { type: 'string' } },
    'Cache-Control': { schema: { type: 'string', example: 'public, max-age=300' } },
  },
  content: { 'text/plain': { schema: { type: 'string' } } },
});

const ifNoneMatch: Schema = { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag of an earlier answer.', schema: { type: 'string' } };

const operation = (operationId: string, summary: string, description: string) => ({
  operationId,
  summary,
  description:
    `${description} Public like a site's own llms.txt: no key; only pages without access groups; derived from what the ` +
    "domain's index holds, so the indexer's searchable-page rules apply; rendered once per re-index. Counted against the " +
    "owning organisation's per-IP assistant limit.",
  tags: ['ai-tools'],
  security: [],
  parameters: [domainParameter, ifNoneMatch],
  responses: {
    '200': file(summary),
    '304': { description: 'Not modified since the ETag given in `If-None-Match`.', headers: rateLimitHeaders },
    '404': errorResponse('Unknown domain.'),
    '429': { ...errorResponse('The per-IP limit is spent.'), headers: retryAfterHeaders },
    '500': errorResponse('Internal error.'),
    '503': errorResponse('The tenant or rate-limit store cannot be reached.'),
  },
});

const LLMS = 'The llms.txt format (llmstxt.org): `# site`, a `> summary`, one `## section` per navigation trail, `- [Title](url): description` lines.';
const FULL = 'Every listed page as `# Title`, `Source: url` and its Markdown, after the same header.';

export const llmsPaths: PathItems = {
  '/discovery/v1/llms/{domain}.txt': { get: operation('llmsTxt', "The domain's llms.txt", LLMS) },
  '/discovery/v1/llms/{domain}/llms.txt': { get: operation('llmsTxtAtRoot', "The domain's llms.txt (site-root form)", LLMS) },
  '/discovery/v1/llms/{domain}/llms-full.txt': { get: operation('llmsFullTxt', "The domain's llms-full.txt", FULL) },
};
