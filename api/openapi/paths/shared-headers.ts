import { RATE_LIMIT_HEADERS } from '../components.js';
import type { Schema } from '../types.js';

/** The RateLimit-* headers of API.md (one definition, in components.ts). */
export const rateLimitHeaders: Record<string, Schema> = RATE_LIMIT_HEADERS;

export const retryAfterHeaders: Record<string, Schema> = {
  ...RATE_LIMIT_HEADERS,
  'Retry-After': { $ref: '#/components/headers/Retry-After' },
};

export const domainParameter: Schema = {
  name: 'domain',
  in: 'path',
  required: true,
  description: 'A domain id (`quire domains add ORG/DOMAIN`).',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
};
