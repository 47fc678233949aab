import type { PathItems, Schema } from '../types.js';
import { domainParameter, rateLimitHeaders, retryAfterHeaders } from './shared-headers.js';

const openAiError: Schema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'param', 'code'],
      properties: {
        message: { type: 'string' },
        type: { type: 'string', description: 'invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error or server_error.' },
        param: { type: ['string', 'null'], description: 'The first broken field of a 400.' },
        code: { type: 'string', description: "Quire's machine code: invalid_request, unauthorized, not_found, rate_limited, model_failed, …" },
        details: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};

/** Errors found by the route are in OpenAI's shape; a body the API cannot parse is refused earlier, in Quire's. */
const error = (description: string, headers?: Record<string, Schema>): Schema => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { anyOf: [openAiError, { $ref: '#/components/schemas/Error' }] } } },
});

const citation: Schema = {
  type: 'object',
  required: ['index', 'title', 'url', 'path'],
  properties: {
    index: { type: 'integer', description: 'The `n` of the `[n]` markers in the text.' },
    title: { type: 'string' },
    url: { type: 'string', description: "Absolute URL on the docs site (the domain's base URL, path and anchor)." },
    path: { type: 'string' },
  },
};

const textPart: Schema = { type: 'object', required: ['type'], properties: { type: { type: 'string' }, text: { type: 'string' } } };

const request: Schema = {
  type: 'object',
  required: ['messages'],
  properties: {
    model: { type: ['string', 'null'], maxLength: 256, description: 'Accepted and ignored: the domain\'s configured model (or the extractive mode) answers. Responses say `quire`.' },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      description: 'The conversation; the last message must be a user message with text. System, developer and tool messages are ignored: the system prompt is Quire\'s.',
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { enum: ['system', 'developer', 'user', 'assistant', 'tool', 'function'] },
          content: { anyOf: [{ type: 'string' }, { type: 'array', items: textPart }, { type: 'null' }] },
        },
      },
    },
    stream: { type: ['boolean', 'null'], description: 'Server-sent `chat.completion.chunk` events ending in `data: [DONE]`.' },
    stream_options: { type: ['object', 'null'], properties: { include_usage: { type: ['boolean', 'null'] } } },
    n: { type: ['integer', 'null'], minimum: 1, maximum: 1, description: 'One answer per request.' },
    filter: {
      type: ['object', 'null'],
      additionalProperties: false,
      description: 'Quire extension, as on the assistant: the docs version, language and access groups to answer from.',
      properties: {
        version: { type: 'string', minLength: 1, maxLength: 100 },
        language: { type: 'string', minLength: 1, maxLength: 100 },
        groups: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 100 } },
      },
    },
  },
  description: 'Other Chat Completions fields (temperature, max_tokens, tools, …) are accepted and ignored.',
};

const usage: Schema = {
  type: 'object',
  required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
  properties: { prompt_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
};

const completion: Schema = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices', 'usage'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer' },
    model: { const: 'quire' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'message', 'finish_reason'],
        properties: {
          index: { type: 'integer' },
          finish_reason: { const: 'stop' },
          message: {
            type: 'object',
            required: ['role', 'content', 'citations'],
            properties: {
              role: { const: 'assistant' },
              content: { type: 'string', description: 'Markdown; each `[n]` marker is a link, `[[n]](url)`, to citation n.' },
              citations: { type: 'array', items: citation, description: 'Quire extension: the passages the answer was drawn from.' },
            },
          },
        },
      },
    },
    usage,
  },
};

const model: Schema = {
  type: 'object',
  required: ['id', 'object', 'created', 'owned_by'],
  properties: { id: { const: 'quire' }, object: { const: 'model' }, created: { type: 'integer' }, owned_by: { type: 'string', description: 'The organisation.' } },
};

const common = { tags: ['ai-tools'], security: [{ assistantKey: [] }] };
const refusals = {
  '401': error('No, unknown or revoked assistant key (`WWW-Authenticate: Bearer`).'),
  '403': error('An admin key: this endpoint takes an assistant key.'),
  '404': error("Unknown domain, or another organisation's."),
  '500': error('Internal error.'),
  '503': error('The key or rate-limit store cannot be reached.'),
};

export const openAiCompatPaths: PathItems = {
  '/discovery/v1/openai/{domain}/chat/completions': {
    post: {
      operationId: 'openAiChatCompletion',
      summary: 'OpenAI-compatible Chat Completions over the docs',
      description:
        'Point any OpenAI client at `/discovery/v1/openai/{domain}` with the assistant key as API key. Answers come from the ' +
        "assistant's retrieval and answerer, with the same three limits; stateless (the client sends the history). Streamed: a first " +
        'chunk with `delta.role` and `delta.citations`, text chunks, a `finish_reason: "stop"` chunk, a usage chunk with no choices ' +
        'when `stream_options.include_usage`, then `data: [DONE]`; a failure after the first byte is a `data: {"error": …}` event. ' +
        "Errors use OpenAI's shape (`{error: {message, type, param, code}}`), except a body that is not JSON or is too large, " +
        "refused before the route in Quire's shape.",
      ...common,
      parameters: [domainParameter],
      requestBody: { required: true, content: { 'application/json': { schema: request } } },
      responses: {
        '200': {
          description: 'The answer: a `chat.completion`, or with `stream: true` server-sent `chat.completion.chunk` events.',
          headers: rateLimitHeaders,
          content: {
            'application/json': { schema: completion },
            'text/event-stream': { schema: { type: 'string', description: '`data: {chat.completion.chunk}` events, then `data: [DONE]`.' } },
          },
        },
        '400': error('A field breaks a rule; `param` names the first, `details` all.'),
        ...refusals,
        '413': error('Body over the configured limit.'),
        '415': error('The body is not `application/json`.'),
        '429': error('An assistant limit is spent.', retryAfterHeaders),
        '502': error('The language model failed before answering (non-streamed requests).'),
      },
    },
  },
  '/discovery/v1/openai/{domain}/models': {
    get: {
      operationId: 'openAiListModels',
      summary: 'The one model of the OpenAI-compatible endpoint',
      ...common,
      parameters: [domainParameter],
      responses: {
        '200': {
          description: 'A list with the model `quire`.',
          content: { 'application/json': { schema: { type: 'object', required: ['object', 'data'], properties: { object: { const: 'list' }, data: { type: 'array', items: model } } } } },
        },
        ...refusals,
      },
    },
  },
  '/discovery/v1/openai/{domain}/models/{model}': {
    get: {
      operationId: 'openAiRetrieveModel',
      summary: 'One model of the OpenAI-compatible endpoint',
      ...common,
      parameters: [domainParameter, { name: 'model', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The model `quire`.', content: { 'application/json': { schema: model } } },
        ...refusals,
        '404': error("Unknown domain or another organisation's, or a model other than `quire`."),
      },
    },
  },
};
