import {
  AUTHENTICATED_GET_ERRORS,
  AUTHENTICATED_POST_ERRORS,
  errorResponses,
  jsonResponse,
  pathParameter,
  RATE_LIMIT_HEADERS,
} from '../components.js';
import type { PathItems, Schema } from '../types.js';

const filterField: Schema = { type: 'string', minLength: 1, maxLength: 100 };
const groups: Schema = { type: 'array', maxItems: 50, items: filterField };

const hit: Schema = {
  type: 'object',
  required: ['content', 'path', 'metadata'],
  properties: {
    content: { type: 'string', description: 'The page’s chunk that best matches the query (Markdown, MDX markup removed).' },
    path: { type: 'string', description: 'URL path of the page; no page appears twice in one response.' },
    metadata: {
      type: 'object',
      required: ['title', 'anchor', 'breadcrumb', 'score'],
      properties: {
        title: { type: 'string' },
        anchor: { type: 'string', description: 'Heading anchor of the chunk shown, empty for the top of the page.' },
        breadcrumb: { type: 'array', items: { type: 'string' } },
        score: { type: 'number', description: 'The page’s score, in [0, 1].' },
        version: { type: 'string' },
        language: { type: 'string' },
      },
    },
  },
};

const jsonBody = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });
const domain = pathParameter('domain', 'A domain of the key’s organisation.');

export const searchPaths: PathItems = {
  '/discovery/v1/search/{domain}': {
    post: {
      operationId: 'search',
      summary: 'Search the indexed docs (the assistant’s per-organisation limit)',
      description:
        'Results are pages, best first: each page appears once, shown by its best-matching chunk, so `pageSize` counts pages ' +
        'and one long page cannot fill the list. The embedded index ranks a page by the mean of its whole-page and best-chunk ' +
        'keyword scores (BM25 with title, heading and path weights); Qdrant ranks a page by its best chunk.',
      security: [{ assistantKey: [] }],
      parameters: [domain],
      requestBody: jsonBody({
        type: 'object',
        required: ['query'],
        examples: [{ query: 'install the CLI', pageSize: 5 }],
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' },
          pageSize: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'Pages to return.' },
          scoreThreshold: { type: 'number', minimum: 0, maximum: 1 },
          filter: {
            type: 'object',
            additionalProperties: false,
            properties: { version: filterField, language: filterField, tag: filterField, groups },
          },
        },
      }),
      responses: {
        '200': jsonResponse('The best pages, one result each', { type: 'array', items: hit }, {
          ...RATE_LIMIT_HEADERS,
          'X-Search-Id': { description: 'The id to report a click on a result with (`POST /discovery/v1/search/{domain}/click`).', schema: { type: 'string' } },
        }),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
      },
    },
  },
  '/discovery/v1/page/{domain}': {
    post: {
      operationId: 'getPage',
      summary: 'A page of the indexed docs',
      security: [{ assistantKey: [] }],
      parameters: [domain],
      requestBody: jsonBody({
        type: 'object',
        required: ['path'],
        examples: [{ path: '/quickstart' }],
        properties: { path: { type: 'string', minLength: 1, maxLength: 500 }, groups },
      }),
      responses: {
        '200': jsonResponse(
          'The page',
          { type: 'object', required: ['path', 'content'], properties: { path: { type: 'string' }, content: { type: 'string' } } },
          RATE_LIMIT_HEADERS,
        ),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
      },
    },
  },
  '/v1/admin/domains/{domain}/index': {
    post: {
      operationId: 'startIndexing',
      summary: 'Index the domain’s docs now (or join the run already going)',
      security: [{ adminKey: [] }],
      parameters: [domain],
      responses: {
        '202': jsonResponse('The indexing run', {
          type: 'object',
          required: ['workflowId', 'runId'],
          properties: { workflowId: { type: 'string' }, runId: { type: 'string' } },
        }),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS),
      },
    },
    get: {
      operationId: 'getIndexing',
      summary: 'The latest indexing run of the domain: status, progress while running, result once completed',
      security: [{ adminKey: [] }],
      parameters: [domain],
      responses: {
        '200': jsonResponse('The run', {
          type: 'object',
          required: ['workflowId', 'runId', 'status'],
          properties: {
            workflowId: { type: 'string' },
            runId: { type: 'string' },
            status: { type: 'string', description: 'running, completed, failed, terminated, …' },
            progress: {
              type: 'object',
              properties: { phase: { enum: ['checkout', 'indexing', 'cleanup', 'done'] }, done: { type: 'integer' }, total: { type: 'integer' } },
            },
            result: { type: 'object', description: 'Pages and chunks added, updated, removed, unchanged; seconds.' },
          },
        }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
};
