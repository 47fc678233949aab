import type { Schema } from './types.js';

/** Shared schemas, parameters, headers and responses, referenced as `#/components/…`. */
export const components: Record<string, Record<string, Schema>> = {
  schemas: {
    Error: {
      type: 'object',
      required: ['error', 'code'],
      properties: {
        error: { type: 'string', description: 'A message for people.' },
        code: { type: 'string', description: 'A stable machine code: invalid_request, unauthorized, forbidden, not_found, …' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
  securitySchemes: {
    adminKey: { type: 'http', scheme: 'bearer', description: 'An admin key (`quire_…`).' },
    assistantKey: { type: 'http', scheme: 'bearer', description: 'An assistant key (`quire_dsc_…`); safe in browsers.' },
  },
  responses: {},
};

/** A JSON error response with the shared shape. */
export function errorResponse(description: string): Schema {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}
