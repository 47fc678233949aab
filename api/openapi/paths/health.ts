import type { PathItems } from '../types.js';

export const healthPaths: PathItems = {
  '/healthz': {
    get: {
      operationId: 'healthz',
      summary: 'The process answers',
      responses: { '200': { description: 'Alive', content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } } } } } } },
    },
  },
};
