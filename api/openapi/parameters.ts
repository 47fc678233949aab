import * as v from 'valibot';
import { TENANT_ID } from '../../core/tenants/index.js';
import { CORS_EXPOSE_HEADERS } from '../cors.js';
import type { Schema } from './types.js';

/** The `{domain}` of the public endpoints (llms.txt, MCP, OpenAI-compatible): a domain id. */
export const DomainIdParams = v.object({
  domain: v.pipe(v.string(), v.regex(TENANT_ID, 'must be a domain id: 1-63 lower-case letters, digits and dashes'), v.description('A domain id (`quire domains add ORG/DOMAIN`).')),
});

/** The `{domain}` of the assistant and search endpoints. */
export const KeyDomainParams = v.object({ domain: v.pipe(v.string(), v.minLength(1), v.description('A domain of the key’s organisation.')) });

/** The calling page's `Origin`, on the endpoints browsers call. */
export const OriginHeader = v.object({
  Origin: v.optional(v.pipe(v.string(), v.description("The calling page's origin, sent by browsers. A domain with `allowedOrigins` refuses a request from another with 403 once its key is found to be the domain's organisation's; without such a key it is answered as for an unknown domain (its preflight is answered as any other)."))),
});

/** `Access-Control-Allow-Origin` and what a page may read, on every answer to a request with an allowed `Origin`. */
export const CORS_RESPONSE_HEADERS: Record<string, Schema> = {
  'Access-Control-Allow-Origin': {
    description: "The request's `Origin`, when the domain allows it (or lists no origins). Absent without an `Origin` header.",
    schema: { type: 'string' },
  },
  'Access-Control-Expose-Headers': { description: `Always \`${CORS_EXPOSE_HEADERS.join(', ')}\`.`, schema: { type: 'string' } },
};
