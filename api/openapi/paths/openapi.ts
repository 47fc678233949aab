import { jsonResponse } from '../components.js';
import type { PathItems } from '../types.js';

export const openApiPaths: PathItems = {
  '/openapi.json': {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document (OpenAPI 3.1)',
      responses: { '200': jsonResponse('The document', { type: 'object', required: ['openapi', 'paths'] }) },
    },
  },
};
