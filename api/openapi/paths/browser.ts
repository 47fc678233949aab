import { BROWSER_ENDPOINTS, type BrowserEndpoint } from '../../browser-routes.js';
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

/** The path in OpenAPI's syntax: `:domain` becomes `{domain}`. */
const openApiPath = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function preflight(endpoint: BrowserEndpoint): Operation {
  const methods = [...new Set([...endpoint.methods, 'OPTIONS'])].join(', ');
  const allowHeaders =
    endpoint.allowHeaders === 'requested'
      ? `\`${CORS_ALLOW_HEADERS.join(', ')}\` and whatever \`Access-Control-Request-Headers\` asks for (the \`openai\` client's \`x-stainless-*\` headers change between versions).`
      : `Always \`${[...CORS_ALLOW_HEADERS, ...(endpoint.allowHeaders ?? [])].join(', ')}\`.`;
  const pathParameters = [...endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) =>
    name === 'domain' ? domainParameter : { name, in: 'path', required: true, schema: { type: 'string' } },
  );
  const origins =
    endpoint.origins === 'domain'
      ? "With an `Origin` the domain allows (any, when it lists none): 204 and the CORS headers. With another origin: 403 and no CORS header."
      : 'With any `Origin`: 204 and the CORS headers.';
  return {
    operationId: `preflight${openApiPath(endpoint.path).replace(/\W/g, '')}`,
    summary: `CORS preflight of ${endpoint.what}`,
    description: `Answered without a key. ${origins} Without \`Origin\`: 200 with \`Allow\`.`,
    tags: ['browser'],
    parameters: [
      ...pathParameters,
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
          'Access-Control-Allow-Headers': { description: allowHeaders, schema: { type: 'string' } },
          'Access-Control-Max-Age': { description: `Always \`${CORS_MAX_AGE_SECONDS}\` (seconds).`, schema: { type: 'integer' } },
        },
      },
      ...(endpoint.origins === 'domain' ? { '403': errorResponse("The origin is not in the domain's `allowedOrigins` (`forbidden`); no CORS header.") } : {}),
    },
  };
}

const preflights: PathItems = Object.fromEntries(BROWSER_ENDPOINTS.map((endpoint) => [openApiPath(endpoint.path), { options: preflight(endpoint) }]));

/** CORS preflights of the endpoints meant for browsers (api/browser-routes.ts), and the widget. */
export const browserPaths: PathItems = {
  ...preflights,
  '/widget.js': {
    ...preflights['/widget.js'],
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
