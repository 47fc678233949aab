import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '../../cors.js';
import { errorResponse } from '../components.js';
import type { Operation, PathItems, Schema } from '../types.js';
import { domainParameter } from './shared-headers.js';

/** `Access-Control-Allow-Origin` and what a page may read, on every answer to a request with an allowed `Origin`. */
export const corsResponseHeaders: Record<string, Schema> = {
  'Access-Control-Allow-Origin': {
    description: "The request's `Origin`, when the domain allows it (or lists no origins). Absent without an `Origin` header.",
    schema: { type: 'string' },
  },
  'Access-Control-Expose-Headers': { description: `Always \`${CORS_EXPOSE_HEADERS.join(', ')}\`.`, schema: { type: 'string' } },
};

export const originParameter: Schema = {
  name: 'Origin',
  in: 'header',
  required: false,
  description: "The calling page's origin, sent by browsers. A domain with `allowedOrigins` refuses others with 403.",
  schema: { type: 'string' },
};

const preflight = (what: string, methods = 'POST, OPTIONS'): Operation => ({
  operationId: `preflight${what.replace(/\W/g, '')}`,
  summary: `CORS preflight of ${what}`,
  description:
    'Answered without a key. With an `Origin` the domain allows (any, when it lists none): 204 and the CORS headers. With another origin: 403 and no CORS header. Without `Origin`: 200 with `Allow`.',
  tags: ['browser'],
  parameters: [
    domainParameter,
    originParameter,
    { name: 'Access-Control-Request-Method', in: 'header', required: false, schema: { type: 'string' } },
    { name: 'Access-Control-Request-Headers', in: 'header', required: false, schema: { type: 'string' } },
  ],
  responses: {
    '200': {
      description: 'Not a CORS preflight (no `Origin`): the allowed methods.',
      headers: { Allow: { schema: { type: 'string' } } },
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    '204': {
      description: 'Preflight accepted.',
      headers: {
        'Access-Control-Allow-Origin': corsResponseHeaders['Access-Control-Allow-Origin'],
        'Access-Control-Allow-Methods': { description: `Always \`${methods}\`.`, schema: { type: 'string' } },
        'Access-Control-Allow-Headers': { description: `Always \`${CORS_ALLOW_HEADERS.join(', ')}\`.`, schema: { type: 'string' } },
        'Access-Control-Max-Age': { description: `Always \`${CORS_MAX_AGE_SECONDS}\` (seconds).`, schema: { type: 'integer' } },
      },
    },
    '403': errorResponse('The origin is not in the domain\'s `allowedOrigins` (`forbidden`); no CORS header.'),
  },
});

/** CORS preflights of the endpoints meant for browsers (see api/browser-routes.ts), and the widget. */
export const browserPaths: PathItems = {
  '/discovery/v2/assistant/{domain}/message': { options: preflight('v2 assistant message') },
  '/discovery/v1/assistant/{domain}/message': { options: preflight('v1 assistant message') },
  '/discovery/v1/assistant/{domain}/feedback': { options: preflight('assistant feedback') },
  '/discovery/v1/search/{domain}': { options: preflight('search') },
  '/discovery/v1/search/{domain}/click': { options: preflight('search click') },
  '/discovery/v1/page/{domain}': { options: preflight('page') },
  '/widget.js': {
    options: preflight('the widget script', 'GET, OPTIONS'),
    get: {
      operationId: 'widgetScript',
      summary: 'The embeddable assistant widget',
      description:
        'One script for any page: `<script src="{server}/widget.js" data-domain="DOMAIN" data-key="quire_dsc_…" async></script>`; optional `data-title`, `data-api`, `data-docs-url`. Built by `npm run build`.',
      tags: ['browser'],
      responses: {
        '200': {
          description: 'The minified widget (JavaScript).',
          headers: { 'Cache-Control': { schema: { type: 'string' } } },
          content: { 'text/javascript': { schema: { type: 'string' } } },
        },
        '404': errorResponse('The widget was not built (`npm run build`).'),
      },
    },
  },
  '/widget/demo': {
    get: {
      operationId: 'widgetDemo',
      summary: 'A page that shows the widget',
      description: 'The domain and assistant key come from the fragment: `/widget/demo#domain=DOMAIN&key=quire_dsc_…`.',
      tags: ['browser'],
      responses: { '200': { description: 'The demo page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
};
