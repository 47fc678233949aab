import { COMMON_HEADERS, jsonResponse } from '../components.js';
import type { PathItems } from '../types.js';

const analytics = {
  type: 'object',
  required: ['queued', 'dropped', 'written'],
  description: 'The analytics recorder since the process started: events waiting, lost (queue full or store failing) and written.',
  properties: { queued: { type: 'integer', minimum: 0 }, dropped: { type: 'integer', minimum: 0 }, written: { type: 'integer', minimum: 0 } },
};
const checks = { type: 'object', additionalProperties: { type: 'string' }, description: 'Each engine: `ok`, or `down: <reason>`.' };

export const healthPaths: PathItems = {
  '/healthz': {
    get: {
      operationId: 'healthz',
      summary: 'The process answers',
      responses: { '200': jsonResponse('Alive', { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }) },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readyz',
      summary: 'Every engine the API needs answers',
      description:
        'Under `QUIRE_RATE_LIMIT_ON_STORE_ERROR=open` a Redis outage is tolerated: 200 with `status: degraded` and the failing checks in `degraded`.',
      responses: {
        '200': jsonResponse('Ready', {
          type: 'object',
          required: ['status', 'checks'],
          properties: { status: { enum: ['ok', 'degraded'] }, degraded: { type: 'array', items: { type: 'string' } }, checks, analytics },
        }),
        '503': {
          description: 'An engine is down (`unavailable`)',
          headers: COMMON_HEADERS,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['error', 'code', 'checks'],
                properties: { error: { type: 'string' }, code: { const: 'unavailable' }, checks, analytics },
              },
            },
          },
        },
      },
    },
  },
};
