import { ERROR_CONTENT } from '../openapi/components.js';
import type { OperationSpec } from '../openapi/operation.js';

/** The widget script and its demo page (router.ts). */
export const widgetOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/widget.js',
    operationId: 'widgetScript',
    summary: 'The embeddable assistant widget',
    description:
      'One script for any page: `<script src="{server}/widget.js" data-domain="DOMAIN" data-key="quire_dsc_…" async></script>`; optional `data-title`, `data-api`, `data-docs-url`. Built by `npm run build`.',
    tags: ['browser'],
    responses: {
      200: {
        description: 'The minified widget (JavaScript).',
        headers: { 'Cache-Control': { schema: { type: 'string' } } },
        content: { 'text/javascript': { schema: { type: 'string' } } },
      },
      404: { description: 'The widget was not built (`npm run build`).', content: ERROR_CONTENT },
    },
  },
  {
    method: 'get',
    path: '/widget/demo',
    operationId: 'widgetDemo',
    summary: 'A page that shows the widget',
    description: 'The domain and assistant key come from the fragment: `/widget/demo#domain=DOMAIN&key=quire_dsc_…`.',
    tags: ['browser'],
    responses: { 200: { description: 'The demo page.', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
];
