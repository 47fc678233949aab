import { AUTHENTICATED_POST_ERRORS, COMMON_HEADERS, errorResponse, errorResponses, pathParameter, RATE_LIMIT_HEADERS } from '../components.js';
import type { PathItems, Schema } from '../types.js';
import { corsResponseHeaders, originParameter } from './browser.js';

const threadHeaders: Record<string, Schema> = {
  'X-Thread-Id': { description: 'The thread this answer belongs to (new or continued).', schema: { type: 'string' } },
  'X-Thread-Key': {
    description: 'Only when the request created the thread: the secret that continues it (shown once; only its hash is stored).',
    schema: { type: 'string' },
  },
};

const part: Schema = {
  type: 'object',
  required: ['type'],
  description: 'Tool parts a client sends back (the `search` step) are accepted and not read.',
  properties: { type: { type: 'string' }, text: { type: 'string', description: 'Required on `text` parts.' } },
};
const messageId: Schema = { type: 'string', minLength: 1, maxLength: 256 };

const v2Message: Schema = {
  type: 'object',
  required: ['id', 'role', 'parts'],
  properties: { id: messageId, role: { enum: ['user', 'assistant', 'system'] }, parts: { type: 'array', items: part } },
  not: { required: ['content'] },
};
const v1Message: Schema = {
  type: 'object',
  required: ['id', 'role', 'content'],
  description: 'AI SDK 4: `content` always; `parts` from 4.2 on (when both are there, the text parts win).',
  properties: {
    id: messageId,
    role: { enum: ['user', 'assistant', 'system', 'data'] },
    content: { type: 'string' },
    parts: { type: 'array', items: part },
  },
};

/** The body rules of API.md; unknown fields (the AI SDKs add several) are allowed. */
function requestBody(message: Schema, example: Schema): Schema {
  const schema: Schema = {
    type: 'object',
    examples: [{ fp: 'reader-1', messages: [example] }],
    required: ['fp', 'messages'],
    properties: {
      fp: { type: 'string', minLength: 1, maxLength: 256, description: 'The reader’s fingerprint.' },
      messages: {
        type: 'array',
        minItems: 1,
        maxItems: 200,
        items: message,
        description: 'The conversation; the last message must be a user message with text (not only whitespace).',
      },
      threadId: {
        type: ['string', 'null'],
        minLength: 1,
        maxLength: 128,
        description: 'Continue this thread (needs `threadKey`); absent: the server starts a thread.',
      },
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
          additionalProperties: false,
          required: ['type', 'value'],
          properties: {
            type: { enum: ['code', 'textSelection'] },
            value: { type: 'string', maxLength: 20_000 },
            path: { type: 'string' },
            elementId: { type: 'string' },
          },
        },
      },
      currentPath: { type: 'string', maxLength: 200 },
    },
  };
  return { required: true, content: { 'application/json': { schema } } };
}

/** One chunk of the UI message stream (the fields every AI SDK 5+ client reads). */
const uiChunk: Schema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: {
      enum: [
        'start',
        'start-step',
        'tool-input-available',
        'tool-output-available',
        'text-start',
        'text-delta',
        'text-end',
        'source-url',
        'finish-step',
        'finish',
        'error',
      ],
    },
    messageId: { type: 'string' },
    messageMetadata: {
      type: 'object',
      properties: {
        threadId: { type: 'string' },
        threadKey: { type: 'string' },
        queryRewrite: { enum: ['rewritten', 'unchanged', 'timeout', 'failed'], description: 'How the model’s query rewrite went (absent without a chat model).' },
      },
    },
    toolCallId: { type: 'string' },
    toolName: { const: 'search' },
    input: { type: 'object', properties: { query: { type: 'string' } } },
    output: {
      type: 'array',
      description: 'The search hits.',
      items: { type: 'object', properties: { path: { type: 'string' }, url: { type: 'string' }, content: { type: 'string' }, metadata: { type: 'object' } } },
    },
    id: { type: 'string' },
    delta: { type: 'string' },
    sourceId: { type: 'string', description: '`src_N`, the `[N]` markers of the text.' },
    url: { type: 'string' },
    title: { type: 'string' },
    errorText: { type: 'string' },
  },
};

/** One server-sent event (Open API 3.1 reads a stream's `schema` per event): a JSON chunk, or the final `[DONE]`. */
const uiStreamEvent: Schema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: { type: 'string', if: { const: '[DONE]' }, then: true, else: { contentMediaType: 'application/json', contentSchema: uiChunk } },
  },
};

const streamHeader = (description: string): Schema => ({ description, schema: { type: 'string' } });
const domain = pathParameter('domain', 'A domain of the key’s organisation.');
const security = [{ assistantKey: [] }];
/** The shared errors, with the CORS headers (set before anything else runs) and the assistant's own meanings. */
const errors: Record<string, Schema> = {
  ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
  '403': errorResponse('A valid key of the other kind, or an `Origin` the domain does not allow (`forbidden`; no CORS header).'),
  '404': errorResponse('Unknown domain or another organisation’s, or a thread that is unknown, expired, of another domain, or without its right key (`not_found`).'),
};
for (const [status, response] of Object.entries(errors)) {
  const headers = typeof response.headers === 'object' && response.headers !== null ? response.headers : {};
  if (status !== '403') errors[status] = { ...response, headers: { ...headers, ...corsResponseHeaders } };
}
const parameters = [domain, originParameter];
const answerHeaders = { ...COMMON_HEADERS, ...RATE_LIMIT_HEADERS, ...threadHeaders, ...corsResponseHeaders };

export const assistantPaths: PathItems = {
  '/discovery/v2/assistant/{domain}/message': {
    post: {
      operationId: 'assistantMessageV2',
      summary: 'Answer from the docs as an AI SDK 5+ UI message stream',
      description:
        'Server-sent events, one JSON chunk per `data:` line and a blank line after each, ending with `data: [DONE]`: ' +
        '`start` (with `messageMetadata` `{threadId, threadKey?, queryRewrite?}`), `start-step`, a `search` tool step (`tool-input-available` `{query}`, ' +
        '`tool-output-available` with hits `{path, url, content, metadata}`, `finish-step`), then the answer step: `start-step`, ' +
        '`text-start`, `text-delta`…, `text-end`, `source-url`… (the `[N]` citations), `finish-step`, `finish`. A complete answer ends ' +
        'with a ```suggestions block of `(Title)[/path]` lines. An error after the stream started is an `error` chunk. A client that reads nothing for ' +
        '`QUIRE_STREAM_STALL_TIMEOUT_MS` has its stream ended. With a chat model, each search the model runs of its own (at most ' +
        '`QUIRE_ASSISTANT_MAX_SEARCHES`) is one more `search` tool step between texts, listing only pages not listed before.',
      security,
      parameters,
      requestBody: requestBody(v2Message, { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install the CLI?' }] }),
      responses: {
        '200': {
          description: 'The answer, streamed',
          headers: { ...answerHeaders, 'x-vercel-ai-ui-message-stream': streamHeader('`v1`') },
          content: { 'text/event-stream': { schema: uiStreamEvent } },
        },
        ...errors,
      },
    },
  },
  '/discovery/v1/assistant/{domain}/message': {
    post: {
      operationId: 'assistantMessageV1',
      summary: 'Answer from the docs as an AI SDK 4 data stream (deprecated)',
      description:
        'One `CODE:JSON` part per line: `f` (message id), `8` (annotation `[{threadId, threadKey?, queryRewrite?}]`), the `search` tool step ' +
        '(`9` call, `a` its hits `{path, url, content, metadata}`, `e`), then `f`, `0` (text)… with a `search` step (`9`, `a`, `e`, `f`) ' +
        'wherever the model searched, `h` (sources), ' +
        '`e` and `d` (finish, with the threadId); `3` is an error after the stream started.',
      deprecated: true,
      security,
      parameters,
      requestBody: requestBody(v1Message, { id: 'm1', role: 'user', content: 'How do I install the CLI?' }),
      responses: {
        '200': {
          description: 'The answer, streamed',
          headers: {
            ...answerHeaders,
            'x-vercel-ai-data-stream': streamHeader('`v1`'),
            Deprecation: { $ref: '#/components/headers/Deprecation' },
            Link: { $ref: '#/components/headers/Link' },
          },
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        ...errors,
      },
    },
  },
};
