import * as v from 'valibot';
import { BROWSER_ENDPOINTS, type BrowserEndpoint } from './browser-routes.js';
import { CORS_ALLOW_HEADERS, CORS_MAX_AGE_SECONDS } from './cors.js';
import type { OperationSpec } from './openapi/operation.js';
import { CORS_RESPONSE_HEADERS, DomainIdParams, OriginHeader } from './openapi/parameters.js';

/** The path in OpenAPI's syntax: `:domain` becomes `{domain}`. */
export const openApiPath = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const PreflightHeaders = v.object({
  ...OriginHeader.entries,
  'Access-Control-Request-Method': v.optional(v.string()),
  'Access-Control-Request-Headers': v.optional(v.string()),
});

function preflight(endpoint: BrowserEndpoint): OperationSpec {
  const methods = [...new Set([...endpoint.methods, 'OPTIONS'])].join(', ');
  const allowHeaders =
    endpoint.allowHeaders === 'requested'
      ? `\`${CORS_ALLOW_HEADERS.join(', ')}\` and whatever \`Access-Control-Request-Headers\` asks for (the \`openai\` client's \`x-stainless-*\` headers change between versions).`
      : `Always \`${[...CORS_ALLOW_HEADERS, ...(endpoint.allowHeaders ?? [])].join(', ')}\`.`;
  const names = [...endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => name ?? '');
  const path = v.object(Object.fromEntries(names.map((name) => [name, name === 'domain' ? DomainIdParams.entries.domain : v.string()])));
  const origins =
    endpoint.origins === 'domain'
      ? "With any `Origin`: 204 and the CORS headers, for every domain alike, so a preflight tells nothing of a domain's `allowedOrigins`; the request that follows from an origin the domain does not list is refused with 403 and no CORS header."
      : 'With any `Origin`: 204 and the CORS headers.';
  return {
    method: 'options',
    path: openApiPath(endpoint.path),
    operationId: `preflight${openApiPath(endpoint.path).replace(/\W/g, '')}`,
    summary: `CORS preflight of ${endpoint.what}`,
    description: `Answered without a key. ${origins} Without \`Origin\`: 200 with \`Allow\`.`,
    tags: ['browser'],
    params: { path, header: PreflightHeaders },
    responses: {
      200: {
        description: 'Not a CORS preflight (no `Origin`): the allowed methods.',
        headers: { Allow: { schema: { type: 'string' } } },
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
      204: {
        description: 'Preflight accepted.',
        headers: {
          'Access-Control-Allow-Origin': CORS_RESPONSE_HEADERS['Access-Control-Allow-Origin']!,
          'Access-Control-Allow-Methods': { description: `Always \`${methods}\`.`, schema: { type: 'string' } },
          'Access-Control-Allow-Headers': { description: allowHeaders, schema: { type: 'string' } },
          'Access-Control-Max-Age': { description: `Always \`${CORS_MAX_AGE_SECONDS}\` (seconds).`, schema: { type: 'integer' } },
        },
      },
    },
  };
}

/** The CORS preflights of the endpoints meant for browsers (browser-routes.ts), one per endpoint. */
export const browserOperations: OperationSpec[] = BROWSER_ENDPOINTS.map(preflight);
