import { AUTHENTICATED_GET_ERRORS, COMMON_HEADERS, errorResponses, pathParameter } from '../components.js';
import type { PathItems } from '../types.js';

export const pullsPaths: PathItems = {
  '/forge/{projectId}/pulls/{number}': {
    get: {
      operationId: 'getLocalPull',
      summary: 'A pull request of the embedded (local) forge: the `prLink` of its jobs',
      description: 'JSON by default; an HTML page for browsers (`Accept: text/html`). The diff is computed from git when read.',
      security: [{ adminKey: [] }],
      parameters: [pathParameter('projectId', 'A project of the key’s organisation.'), pathParameter('number', 'The pull request number.')],
      responses: {
        '200': {
          description: 'The pull request',
          headers: COMMON_HEADERS,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['number', 'projectId', 'jobId', 'branch', 'base', 'title', 'body', 'draft', 'state', 'comments', 'createdAt', 'updatedAt', 'diff'],
                properties: {
                  number: { type: 'integer' },
                  projectId: { type: 'string' },
                  jobId: { type: 'string' },
                  branch: { type: 'string' },
                  base: { type: 'string' },
                  title: { type: 'string' },
                  body: { type: 'string' },
                  draft: { type: 'boolean' },
                  state: { enum: ['open', 'closed'] },
                  comments: {
                    type: 'array',
                    items: { type: 'object', required: ['body', 'createdAt'], properties: { body: { type: 'string' }, createdAt: { type: 'string' } } },
                  },
                  createdAt: { type: 'string' },
                  updatedAt: { type: 'string' },
                  diff: { type: 'string' },
                },
              },
            },
            'text/html': { schema: { type: 'string' } },
          },
        },
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
};
