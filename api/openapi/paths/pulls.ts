import { AUTHENTICATED_GET_ERRORS, COMMON_HEADERS, errorResponse, errorResponses, pathParameter } from '../components.js';
import type { PathItems, Schema } from '../types.js';

/** An error answered as JSON, or to a browser (`Accept: text/html`) that has no key as the sign-in page. */
const orSignInPage = (response: Schema): Schema => ({
  ...response,
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/Error' } },
    'text/html': { schema: { type: 'string', description: 'The sign-in page: it explains the link and asks for an admin key.' } },
  },
});

export const pullsPaths: PathItems = {
  '/forge/{projectId}/pulls/{number}': {
    get: {
      operationId: 'getLocalPull',
      summary: 'A pull request of the embedded (local) forge: the `prLink` of its jobs',
      description:
        "The job's prLink carries `?token=`: it opens this one pull request in a browser, no key needed. Without a token, an admin key of the " +
        "project's organisation. JSON by default; an HTML page for browsers (`Accept: text/html`: the job's title, readable dates, each turn's " +
        'summary and own request as Markdown rendered safely, how to fetch and merge the branch, and the diff). The diff is computed from git ' +
        'when read. A browser with no key and no token, or with a token that opens nothing, gets a sign-in page (401 or 404) instead of JSON.',
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
        '401': orSignInPage(errorResponse('No token, and no (or an unknown or revoked) key (`unauthorized`).', { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } })),
        '404': orSignInPage(errorResponse('Unknown project or pull request, another organisation’s, or a wrong token (`not_found`).')),
      },
    },
  },
};
