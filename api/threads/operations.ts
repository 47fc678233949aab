import { AUTHENTICATED_GET_ERRORS } from '../openapi/components.js';
import type { OperationSpec } from '../openapi/operation.js';
import { ThreadParams, ThreadSchema } from './schema.js';

export const threadsOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/v1/admin/threads/{threadId}',
    operationId: 'getThread',
    summary: 'An assistant conversation of the key’s organisation',
    description: 'An alias kept for existing callers; `GET /v1/analytics/{domain}/assistant/threads/{threadId}` shows the same thread as Mintlify’s messages.',
    security: 'admin',
    params: { path: ThreadParams },
    responses: { 200: { description: 'The thread', body: ThreadSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
];
