import { AUTHENTICATED_GET_ERRORS, COMMON_HEADERS, errorResponse, errorResponses, pathParameter } from '../components.js';
import type { PathItems } from '../types.js';

export const pullsPaths: PathItems = {
  '/forge/{projectId}/pulls/{number}': {
    get: {
      operationId: 'getLocalPull',
      summary: 'A pull request of the embedded (local) forge: the `prLink` of its jobs',
      description:
        "The job's prLink carries `?token=`: it opens this one pull request in a browser, no key needed. Without a token, an admin key of the " +
        "project's organisation. JSON by default; an HTML page for browsers (`Accept: text/html`; title, body and follow-ups as Markdown " +
        'rendered safely, and the diff). The diff is computed from git when read.',
      security: [{}, { adminKey: [] }],
      parameters: [
        pathParameter('projectId', 'A project of the key’s organisation.'),
        pathParameter('number', 'The pull request number.'),
        { name: 'token', in: 'query', required: false, description: 'The view token of the prLink (this one pull request only).', schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: 'The pull request',
          headers: {
            ...COMMON_HEADERS,
            'Content-Security-Policy': { description: 'Nothing runs on the page, and it loads nothing but inline styles and images.', schema: { type: 'string' } },
            'Referrer-Policy': { description: '`no-referrer`: the token never leaves in a Referer.', schema: { type: 'string' } },
            'Cache-Control': { description: '`private, no-store`.', schema: { type: 'string' } },
          },
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
        '401': errorResponse('No token, and no (or an unknown or revoked) key (`unauthorized`).', { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } }),
        '404': errorResponse('Unknown project or pull request, another organisation’s, or a wrong token (`not_found`).'),
      },
    },
  },
};
