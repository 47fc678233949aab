import { AUTHENTICATED_GET_ERRORS, errorResponses, jsonResponse, pathParameter } from '../components.js';
import type { PathItems, Schema } from '../types.js';

/** One question and its answer as the thread store keeps it (also in the analytics thread view). */
export const exchange: Schema = {
  type: 'object',
  required: ['messageId', 'question', 'answer', 'sources', 'fp', 'mode', 'outcome', 'startedAt', 'finishedAt'],
  properties: {
    messageId: { type: 'string' },
    question: { type: 'string' },
    answer: { type: 'string', description: 'As far as it streamed.' },
    sources: {
      type: 'array',
      items: { type: 'object', required: ['url', 'title', 'path'], properties: { url: { type: 'string' }, title: { type: 'string' }, path: { type: 'string' } } },
    },
    fp: { type: 'string' },
    mode: { enum: ['model', 'extractive'] },
    outcome: { enum: ['complete', 'error', 'aborted'] },
    error: { type: 'string' },
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: 'string', format: 'date-time' },
  },
};

/** A thread's transcript, with `extra` required properties (the analytics thread view adds its recorded answers). */
export function threadSchema(extra: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    required: ['threadId', 'orgId', 'domainId', 'createdAt', 'updatedAt', 'exchanges', ...Object.keys(extra)],
    properties: {
      threadId: { type: 'string' },
      orgId: { type: 'string' },
      domainId: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      exchanges: { type: 'array', items: exchange },
      ...extra,
    },
  };
}

export const threadsPaths: PathItems = {
  '/v1/admin/threads/{threadId}': {
    get: {
      operationId: 'getThread',
      summary: 'An assistant conversation of the key’s organisation',
      description: 'An alias kept for existing callers; `GET /v1/analytics/{domain}/assistant/threads/{threadId}` shows the same transcript with its recorded answers.',
      security: [{ adminKey: [] }],
      parameters: [pathParameter('threadId', 'The thread id the assistant stream announced.')],
      responses: {
        '200': jsonResponse('The thread', threadSchema()),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
};
