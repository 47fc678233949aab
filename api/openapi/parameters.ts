import * as v from 'valibot';
import { TENANT_ID } from '../../core/tenants/index.js';
import type { ErrorHeaderSet } from './components.js';
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
  'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' },
  'Access-Control-Expose-Headers': { $ref: '#/components/headers/Access-Control-Expose-Headers' },
};

/** The errors of the endpoints browsers call carry the CORS headers too, so a page can read them (`CorsBadRequest`…). */
export const CORS_ERRORS: ErrorHeaderSet = { name: 'Cors', headers: CORS_RESPONSE_HEADERS };
