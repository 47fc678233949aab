import type { NumberedCitation, Usage } from '../assistant/index.js';
import type * as v from 'valibot';
import type { HttpError } from '../http-error.js';
import type { ChatCompletion, ModelSchema, OpenAiErrorSchema } from './schema.js';

/** The one model this endpoint offers: whatever `model` a request names, Quire's answerer answers. */
export const MODEL_ID = 'quire' as const;

/** What every object of one completion repeats. */
export interface CompletionIds {
  id: string;
  /** Unix seconds. */
  created: number;
}

const usageOf = (u: Usage) => ({ prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens });

/** Why an answer ended, as Chat Completions says it: whole (`stop`), or cut short by the model (see `AnswerCutShortError`). */
export type FinishReason = 'stop' | 'length' | 'content_filter';

/** A `chat.completion`: the whole answer, with its citations on the message. */
export function completion(ids: CompletionIds, content: string, citations: NumberedCitation[], usage: Usage, finishReason: FinishReason = 'stop'): ChatCompletion {
  return {
    id: ids.id,
    object: 'chat.completion',
    created: ids.created,
    model: MODEL_ID,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, citations }, logprobs: null, finish_reason: finishReason }],
    usage: usageOf(usage),
  };
}

/**
 * One `chat.completion.chunk`. With `stream_options.include_usage` every
 * chunk carries `usage: null` and a last chunk with no choices carries it.
 */
export function chunk(ids: CompletionIds, delta: Record<string, unknown>, finishReason: FinishReason | null, withUsage: boolean) {
  return {
    id: ids.id,
    object: 'chat.completion.chunk',
    created: ids.created,
    model: MODEL_ID,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(withUsage ? { usage: null } : {}),
  };
}

export function usageChunk(ids: CompletionIds, usage: Usage) {
  return { id: ids.id, object: 'chat.completion.chunk', created: ids.created, model: MODEL_ID, choices: [], usage: usageOf(usage) };
}

const ERROR_TYPES: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

/** Errors in OpenAI's shape, which its client libraries read; `code` is Quire's machine code. */
export function openAiError(message: string, status: number, code: string, param: string | null = null) {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  return { error: { message, type, param, code } };
}

/** The error middleware's body for this endpoint; a validation error keeps every broken field in `details`. */
export function openAiErrorBody(e: HttpError): v.InferOutput<typeof OpenAiErrorSchema> {
  const { error } = openAiError(e.message, e.status, e.code, e.details?.[0]?.path ?? null);
  return { error: { ...error, ...(e.details ? { details: e.details } : {}) } };
}

/** The models list: one model per domain endpoint. */
export function modelObject(ownedBy: string, created: number): v.InferOutput<typeof ModelSchema> {
  return { id: MODEL_ID, object: 'model', created, owned_by: ownedBy };
}
