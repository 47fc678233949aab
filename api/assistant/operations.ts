import { AUTHENTICATED_POST_ERRORS, ERROR_CONTENT, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec, ResponseSpec } from '../openapi/operation.js';
import { CORS_ERRORS, CORS_RESPONSE_HEADERS, KeyDomainParams, OriginHeader } from '../openapi/parameters.js';
import type { Schema } from '../openapi/types.js';
import { ContextItem, MessagePart, SearchFilter, V1Body, V2Body } from './schema.js';

const stringHeader = (description: string): Schema => ({ description, schema: { type: 'string' } });

const threadHeaders: Record<string, Schema> = {
  'X-Thread-Id': stringHeader('The thread this answer belongs to (new or continued).'),
  'X-Thread-Key': stringHeader('Only when the request created the thread: the secret that continues it (shown once; only its hash is stored).'),
};

/** One chunk of the UI message stream (the fields every AI SDK 5+ client reads; ui-message-stream.ts writes them). */
const uiChunk: Schema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: {
      enum: ['start', 'start-step', 'tool-input-available', 'tool-output-available', 'text-start', 'text-delta', 'text-end', 'source-url', 'finish-step', 'finish', 'message-metadata', 'error'],
    },
    messageId: { type: 'string' },
    messageMetadata: {
      type: 'object',
      properties: {
        threadId: { type: 'string' },
        threadKey: { type: 'string' },
        queryRewrite: { enum: ['rewritten', 'unchanged', 'timeout', 'failed'], description: 'How the model’s query rewrite went (absent without a chat model).' },
        errorCode: {
          enum: ['model_rate_limited', 'model_failed', 'output_limit', 'content_filter', 'answer_failed'],
          description: 'On the `message-metadata` chunk just before an `error`: why the answer failed, for a client that words it itself.',
        },
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

/** One server-sent event (OpenAPI 3.1 reads a stream's `schema` per event): a JSON chunk, or the final `[DONE]`. */
const uiStreamEvent: Schema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: { type: 'string', anyOf: [{ const: '[DONE]' }, { contentMediaType: 'application/json', contentSchema: uiChunk }] },
  },
};

const answerHeaders = { ...RATE_LIMIT_HEADERS, ...threadHeaders, ...CORS_RESPONSE_HEADERS };
/** The shared errors carry the CORS headers (set before anything else runs), except a refused origin's 403. */
const refusals: Record<number, ResponseSpec> = {
  403: { description: 'A valid key of the other kind, or an `Origin` the domain does not allow (`forbidden`; no CORS header).', content: ERROR_CONTENT },
  404: {
    description: 'Unknown domain or another organisation’s, or a thread that is unknown, expired, of another domain, or without its right key (`not_found`).',
    content: ERROR_CONTENT,
    headers: CORS_RESPONSE_HEADERS,
  },
};
const common: Pick<OperationSpec, 'method' | 'security' | 'params' | 'errors' | 'errorHeaders'> = {
  method: 'post',
  security: 'assistant',
  params: { path: KeyDomainParams, header: OriginHeader },
  errors: [...AUTHENTICATED_POST_ERRORS, 429, 502],
  errorHeaders: CORS_ERRORS,
};

/** The parts the v1 and v2 assistant bodies share, named in the document (`#/components/schemas/…`). */
export const assistantSchemas: NamedSchemas = { MessagePart, SearchFilter, AssistantContextItem: ContextItem };

/** The assistant's message endpoints (router.ts), from the schemas the routes validate with; the answers are streams. */
export const assistantOperations: OperationSpec[] = [
  {
    ...common,
    path: '/discovery/v2/assistant/{domain}/message',
    operationId: 'assistantMessageV2',
    summary: 'Answer from the docs as an AI SDK 5+ UI message stream',
    description:
      'Server-sent events, one JSON chunk per `data:` line and a blank line after each, ending with `data: [DONE]`: ' +
      '`start` (with `messageMetadata` `{threadId, threadKey?, queryRewrite?}`), `start-step`, a `search` tool step (`tool-input-available` `{query}`, ' +
      '`tool-output-available` with hits `{path, url, content, metadata}`, `finish-step`), then the answer step: `start-step`, ' +
      '`text-start`, `text-delta`…, `text-end`, `source-url`… (the `[N]` citations), `finish-step`, `finish`. A complete answer ends ' +
      'with a ```suggestions block of `(Title)[/path]` lines. An error after the stream started is an `error` chunk. A client that reads nothing for ' +
      '`QUIRE_STREAM_STALL_TIMEOUT_MS` has its stream ended. With a chat model, each search the model runs of its own (at most ' +
      '`QUIRE_ASSISTANT_MAX_SEARCHES`) is one more `search` tool step between texts, listing only pages not listed before. ' +
      'Only a request whose stream begins spends the assistant limits: one refused with any 4xx or 5xx spends nothing and carries no `RateLimit-*` headers.',
    body: V2Body,
    responses: {
      200: {
        description: 'The answer, streamed',
        headers: { ...answerHeaders, 'x-vercel-ai-ui-message-stream': stringHeader('`v1`') },
        content: { 'text/event-stream': { schema: uiStreamEvent } },
      },
      ...refusals,
    },
  },
  {
    ...common,
    path: '/discovery/v1/assistant/{domain}/message',
    operationId: 'assistantMessageV1',
    summary: 'Answer from the docs as an AI SDK 4 data stream (deprecated)',
    description:
      'One `CODE:JSON` part per line: `f` (message id), `8` (annotation `[{threadId, threadKey?, queryRewrite?}]`), the `search` tool step ' +
      '(`9` call, `a` its hits `{path, url, content, metadata}`, `e`), then `f`, `0` (text)… with a `search` step (`9`, `a`, `e`, `f`) ' +
      'wherever the model searched, `h` (sources), ' +
      '`e` and `d` (finish, with the threadId); `3` is an error after the stream started. Only a request whose stream begins spends the assistant limits.',
    deprecated: true,
    body: V1Body,
    responses: {
      200: {
        description: 'The answer, streamed',
        headers: {
          ...answerHeaders,
          'x-vercel-ai-data-stream': stringHeader('`v1`'),
          Deprecation: { $ref: '#/components/headers/Deprecation' },
          Link: { $ref: '#/components/headers/Link' },
        },
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
      ...refusals,
    },
  },
];
