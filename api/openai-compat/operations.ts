import * as v from 'valibot';
import { RATE_LIMIT_HEADERS } from '../openapi/components.js';
import { schemaRef, type NamedSchemas, type OperationSpec, type ResponseSpec } from '../openapi/operation.js';
import { DomainIdParams } from '../openapi/parameters.js';
import type { Schema } from '../openapi/types.js';
import { ChatCompletionBody, ChatCompletionSchema, ModelListSchema, ModelSchema, OpenAiErrorSchema } from './schema.js';

/** The shapes the OpenAI-compatible operations share, named in the document (`#/components/schemas/…`). */
export const openAiCompatSchemas: NamedSchemas = { OpenAiModel: ModelSchema, OpenAiError: OpenAiErrorSchema };

/** Errors found by the route are in OpenAI's shape; a body the API cannot parse is refused earlier, in Quire's. */
const errorContent: Record<string, Schema> = { 'application/json': { schema: { anyOf: [schemaRef('OpenAiError'), schemaRef('Error')] } } };
const error = (description: string, headers?: Record<string, Schema>): ResponseSpec => ({ description, content: errorContent, ...(headers ? { headers } : {}) });

const common: Pick<OperationSpec, 'tags' | 'security'> = { tags: ['ai-tools'], security: 'assistant' };
const refusals: Record<number, ResponseSpec> = {
  401: error('No, unknown or revoked assistant key (`WWW-Authenticate: Bearer`).'),
  403: error('An admin key: this endpoint takes an assistant key.'),
  404: error("Unknown domain, or another organisation's."),
  500: error('Internal error.'),
  503: error('The key or rate-limit store cannot be reached.'),
};

/** The OpenAI-compatible endpoint of each domain (router.ts), from the schemas the route validates and answers with. */
export const openAiCompatOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/discovery/v1/openai/{domain}/chat/completions',
    operationId: 'openAiChatCompletion',
    summary: 'OpenAI-compatible Chat Completions over the docs',
    description:
      'Point any OpenAI client at `/discovery/v1/openai/{domain}` with the assistant key as API key. Answers come from the ' +
      "assistant's retrieval and answerer, with the same three limits; stateless (the client sends the history). Streamed: a first " +
      'chunk with `delta.role` and `delta.citations`, text chunks, a `finish_reason` chunk (`stop`; `length` or `content_filter` when the ' +
      'model cut its answer short), a usage chunk with no choices ' +
      'when `stream_options.include_usage`, then `data: [DONE]`; a failure after the first byte is a `data: {"error": …}` event. ' +
      "Errors use OpenAI's shape (`{error: {message, type, param, code}}`), a body that is not JSON or is too large included. " +
      'Spends the assistant limits only for an answer: a completion refused with any 4xx or 5xx (retrieval down, the model failing ' +
      'before a non-streamed answer) spends nothing and carries no `RateLimit-*` headers; a stream that began has spent.',
    ...common,
    params: { path: DomainIdParams },
    body: ChatCompletionBody,
    responses: {
      200: {
        description: 'The answer: a `chat.completion`, or with `stream: true` server-sent `chat.completion.chunk` events.',
        headers: RATE_LIMIT_HEADERS,
        body: ChatCompletionSchema,
        content: { 'text/event-stream': { schema: { type: 'string', description: '`data: {chat.completion.chunk}` events, then `data: [DONE]`.' } } },
      },
      400: error('A field breaks a rule; `param` names the first, `details` all.'),
      ...refusals,
      413: error('Body over the configured limit.'),
      415: error('The body is not `application/json`.'),
      429: error('An assistant limit is spent.', { ...RATE_LIMIT_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
      502: error('The language model failed before answering (non-streamed requests).'),
      503: error('The key or rate-limit store cannot be reached, or the language model is rate limiting Quire (`Retry-After` says when to retry).', {
        'Retry-After': { $ref: '#/components/headers/Retry-After' },
      }),
    },
  },
  {
    method: 'get',
    path: '/discovery/v1/openai/{domain}/models',
    operationId: 'openAiListModels',
    summary: 'The one model of the OpenAI-compatible endpoint',
    ...common,
    params: { path: DomainIdParams },
    responses: { 200: { description: 'A list with the model `quire`.', body: ModelListSchema }, ...refusals },
  },
  {
    method: 'get',
    path: '/discovery/v1/openai/{domain}/models/{model}',
    operationId: 'openAiRetrieveModel',
    summary: 'One model of the OpenAI-compatible endpoint',
    ...common,
    params: { path: v.object({ ...DomainIdParams.entries, model: v.string() }) },
    responses: {
      200: { description: 'The model `quire`.', body: ModelSchema },
      ...refusals,
      404: error("Unknown domain or another organisation's, or a model other than `quire`."),
    },
  },
];
