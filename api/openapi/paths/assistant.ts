import { errorResponse } from '../components.js';
import type { Operation, PathItems, Schema } from '../types.js';
import { corsResponseHeaders, originParameter } from './browser.js';
import { domainParameter, rateLimitHeaders, retryAfterHeaders } from './shared-headers.js';

const threadHeaders: Record<string, Schema> = {
  'X-Thread-Id': { description: 'The thread this answer belongs to (new or continued).', schema: { type: 'string' } },
  'X-Thread-Key': {
    description: 'Only when the request created the thread: the secret that continues it (shown once; only its hash is stored).',
    schema: { type: 'string' },
  },
};

const part: Schema = { type: 'object', required: ['type'], properties: { type: { type: 'string' }, text: { type: 'string' } } };

const message = (v1: boolean): Schema => ({
  type: 'object',
  required: ['id', 'role', 'parts', ...(v1 ? ['content'] : [])],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 256 },
    role: { enum: v1 ? ['user', 'assistant', 'system', 'data'] : ['user', 'assistant', 'system'] },
    parts: { type: 'array', items: part, description: 'Tool parts a client sends back (the `search` step) are accepted and not read.' },
    ...(v1 ? { content: { type: 'string' } } : {}),
  },
});

const body = (v1: boolean): Schema => ({
  type: 'object',
  required: ['fp', 'messages'],
  properties: {
    fp: { type: 'string', minLength: 1, maxLength: 256 },
    messages: { type: 'array', minItems: 1, maxItems: 200, items: message(v1), description: 'The last one is a user message with text.' },
    threadId: { type: ['string', 'null'], minLength: 1, maxLength: 128, description: 'Continue this thread (needs `threadKey`); absent: a new thread.' },
    threadKey: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 256,
      description: 'The key handed out with the thread. Missing or wrong, the thread answers 404 like an unknown one.',
    },
    retrievalPageSize: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
    filter: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { version: { type: 'string' }, language: { type: 'string' }, groups: { type: 'array', items: { type: 'string' } } },
    },
    context: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['type', 'value'],
        additionalProperties: false,
        properties: {
          type: { enum: ['code', 'textSelection'] },
          value: { type: 'string', maxLength: 20000 },
          path: { type: 'string' },
          elementId: { type: 'string' },
        },
      },
    },
    currentPath: { type: 'string', maxLength: 200 },
  },
});

const STREAM_V2 =
  'UI message stream (AI SDK 5+): `start` (messageMetadata `{threadId, threadKey?}`), a `search` tool step (`tool-input-available` `{query}`, `tool-output-available` with hits `{path, url, content, metadata}`), then the answer step (text, `source-url` parts), `finish`, `[DONE]`. A typical answer ends with a ```suggestions block of `(Title)[/path]` lines.';
const STREAM_V1 =
  'Data stream (AI SDK 4): `f:`, `8:[{threadId, threadKey?}]`, `9:` search call and `a:` its result (hits `{path, url, content, metadata}`), `e:`, then `f:`, `0:` text, `h:` sources, `e:`, `d:`.';

const operation = (v1: boolean): Operation => ({
  operationId: v1 ? 'assistantMessageV1' : 'assistantMessageV2',
  summary: v1 ? 'Ask the assistant (v1, AI SDK 4; deprecated)' : 'Ask the assistant (v2, AI SDK 5 and later)',
  ...(v1 ? { deprecated: true } : {}),
  tags: ['assistant'],
  security: [{ assistantKey: [] }],
  parameters: [domainParameter, originParameter],
  requestBody: { required: true, content: { 'application/json': { schema: body(v1) } } },
  responses: {
    '200': {
      description: v1 ? STREAM_V1 : STREAM_V2,
      headers: { ...threadHeaders, ...rateLimitHeaders, ...corsResponseHeaders },
      content: v1 ? { 'text/plain': { schema: { type: 'string' } } } : { 'text/event-stream': { schema: { type: 'string' } } },
    },
    '400': errorResponse('A field breaks a rule (`details` names it).'),
    '401': errorResponse('No, unknown or revoked key.'),
    '403': errorResponse('An admin key, or an `Origin` the domain does not allow.'),
    '404': errorResponse('Unknown domain, or a thread that is unknown, expired, of another domain, or without its right key.'),
    '413': errorResponse('Body over the limit.'),
    '415': errorResponse('Body not JSON.'),
    '429': { ...errorResponse('A limit is spent.'), headers: { ...retryAfterHeaders, ...corsResponseHeaders } },
    '503': errorResponse('Redis unreachable under the closed policy.'),
  },
});

export const assistantPaths: PathItems = {
  '/discovery/v2/assistant/{domain}/message': { post: operation(false) },
  '/discovery/v1/assistant/{domain}/message': { post: operation(true) },
};
