import { CORS_RESPONSE_HEADERS } from '../parameters.js';
import type { Schema } from '../types.js';

// What the analytics paths (analytics.ts, still written by hand) take from here; the browser
// endpoints' own operations are declared in api/browser-operations.ts and api/widget/operations.ts.

export const corsResponseHeaders: Record<string, Schema> = CORS_RESPONSE_HEADERS;

export const originParameter: Schema = {
  name: 'Origin',
  in: 'header',
  required: false,
  description: "The calling page's origin, sent by browsers. A domain with `allowedOrigins` refuses others with 403.",
  schema: { type: 'string' },
};
