import type { Schema } from '../types.js';

/** The RateLimit-* headers of API.md, as response header objects. */
export const rateLimitHeaders: Record<string, Schema> = {
  'RateLimit-Limit': { description: 'Requests allowed in the tightest window that applied.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until that window resets.', schema: { type: 'integer' } },
};

export const retryAfterHeaders: Record<string, Schema> = {
  ...rateLimitHeaders,
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
};

export const domainParameter: Schema = {
  name: 'domain',
  in: 'path',
  required: true,
  description: 'A domain id (`quire domains add ORG/DOMAIN`).',
  schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
};
