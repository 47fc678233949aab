import { errorResponse } from '../components.js';
import type { PathItems } from '../types.js';

export const pullsPaths: PathItems = {
  '/forge/{projectId}/pulls/{number}': {
    get: {
      operationId: 'localPullRequest',
      summary: 'A pull request of the local forge (the prLink)',
      description:
        "The job's prLink carries `?token=`: it opens this one pull request in a browser, no key needed. Without a token, an admin key of the project's organisation. HTML (title, body and follow-ups as Markdown rendered safely, the diff) for `Accept: text/html`, else JSON.",
      tags: ['agent'],
      security: [{}, { adminKey: [] }],
      parameters: [
        { name: 'projectId', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'number', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'token', in: 'query', required: false, description: 'The view token of the prLink.', schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: 'The pull request.',
          headers: {
            'Content-Security-Policy': { schema: { type: 'string' } },
            'Referrer-Policy': { description: '`no-referrer`: the token never leaves in a Referer.', schema: { type: 'string' } },
          },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['number', 'projectId', 'jobId', 'branch', 'base', 'title', 'body', 'draft', 'state', 'comments', 'diff'],
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
                  comments: { type: 'array', items: { type: 'object', properties: { body: { type: 'string' }, createdAt: { type: 'string' } } } },
                  diff: { type: 'string' },
                  createdAt: { type: 'string', format: 'date-time' },
                  updatedAt: { type: 'string', format: 'date-time' },
                },
              },
            },
            'text/html': { schema: { type: 'string' } },
          },
        },
        '401': errorResponse('No token and no (or an unknown) key.'),
        '403': errorResponse('An assistant key.'),
        '404': errorResponse('Unknown project or pull request, another organisation\'s, or a wrong token.'),
      },
    },
  },
};
