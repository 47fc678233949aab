import * as v from 'valibot';

/**
 * A Chat Completions request as OpenAI clients send it. Unknown fields
 * (temperature, max_tokens, tools, user, …) are accepted and ignored: the
 * answer comes from the docs with Quire's own prompt and model.
 */

const MAX_MESSAGES = 200;

const contentPart = v.looseObject({ type: v.string('must be a string'), text: v.optional(v.string('must be a string')) });

const message = v.looseObject({
  role: v.picklist(['system', 'developer', 'user', 'assistant', 'tool', 'function'], 'must be system, developer, user, assistant, tool or function'),
  content: v.optional(v.nullable(v.union([v.string(), v.array(contentPart)], 'must be a string or an array of content parts'))),
});

export type ChatMessage = v.InferOutput<typeof message>;

/** The text of a message: its string content, or its text parts joined. */
export function textOf(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  return (m.content ?? [])
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('');
}

const endsWithUserText = (messages: ChatMessage[]) => {
  const last = messages.at(-1);
  return last?.role === 'user' && textOf(last).trim().length > 0;
};

const filterField = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'));

export const ChatCompletionBody = v.pipe(
  v.looseObject({
    model: v.pipe(
      v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters')))),
      v.description("Accepted and ignored: the domain's configured model (or the extractive mode) answers. Responses say `quire`."),
    ),
    messages: v.pipe(
      v.array(message, 'is required and must be an array of messages'),
      v.minLength(1, 'must have at least 1 message'),
      v.maxLength(MAX_MESSAGES, `must have at most ${MAX_MESSAGES} messages`),
      v.check(endsWithUserText, 'the last message must be a user message with text'),
      v.description("The conversation; the last message must be a user message with text. System, developer and tool messages are ignored: the system prompt is Quire's."),
    ),
    stream: v.pipe(v.optional(v.nullable(v.boolean('must be a boolean'))), v.description('Server-sent `chat.completion.chunk` events ending in `data: [DONE]`.')),
    stream_options: v.optional(v.nullable(v.looseObject({ include_usage: v.optional(v.nullable(v.boolean('must be a boolean'))) }))),
    n: v.pipe(
      v.optional(v.nullable(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be 1'), v.maxValue(1, 'must be 1: one answer per request')))),
      v.description('One answer per request.'),
    ),
    // What the endpoint cannot honour is refused, not ignored: a client forcing a tool call, or JSON, would wait for what never comes.
    tool_choice: v.pipe(
      v.optional(v.nullable(v.unknown())),
      v.check((c) => c === undefined || c === null || c === 'auto' || c === 'none', 'may only be "auto" or "none": this endpoint answers in text and calls no tools of the client'),
      v.description('`auto` or `none`: the endpoint calls no tools of the client (a forced tool call is refused).'),
    ),
    response_format: v.pipe(
      v.optional(v.nullable(v.unknown())),
      v.check(
        (f) => f === undefined || f === null || (typeof f === 'object' && 'type' in f && f.type === 'text'),
        'may only be {"type": "text"}: answers are prose with citations, not JSON',
      ),
      v.description('Only `{"type": "text"}`: answers are prose with citations (JSON modes are refused).'),
    ),
    /** Quire's extension, as on the assistant: the docs version, language and access groups to answer from. */
    filter: v.pipe(
      v.optional(
        v.nullable(
          v.strictObject({
            version: v.optional(filterField),
            language: v.optional(filterField),
            groups: v.optional(v.pipe(v.array(filterField, 'must be an array of strings'), v.maxLength(50, 'must have at most 50 items'))),
          }),
        ),
      ),
      v.description('Quire extension, as on the assistant: the docs version, language and access groups to answer from.'),
    ),
  }),
  v.description('Other Chat Completions fields (temperature, max_tokens, tools, …) are accepted and ignored; a forced tool choice or a JSON response format is refused.'),
);

export type ChatCompletionRequest = v.InferOutput<typeof ChatCompletionBody>;

const integer = v.pipe(v.number(), v.integer());

/** A citation of an answer (Quire's extension): the `[n]` markers of the text point at them. */
const CitationSchema = v.object({
  index: v.pipe(integer, v.description('The `n` of the `[n]` markers in the text.')),
  title: v.string(),
  url: v.pipe(v.string(), v.description("Absolute URL on the docs site (the domain's base URL, path and anchor).")),
  path: v.string(),
});

const UsageSchema = v.object({ prompt_tokens: integer, completion_tokens: integer, total_tokens: integer });

/** A `chat.completion`, as wire-format.ts writes it. */
export const ChatCompletionSchema = v.object({
  id: v.string(),
  object: v.literal('chat.completion'),
  created: integer,
  model: v.literal('quire'),
  choices: v.array(
    v.object({
      index: integer,
      message: v.object({
        role: v.literal('assistant'),
        content: v.pipe(v.string(), v.description('Markdown; each `[n]` marker is a link, `[[n]](url)`, to citation n.')),
        refusal: v.null(),
        citations: v.pipe(v.array(CitationSchema), v.description('Quire extension: the passages the answer was drawn from.')),
      }),
      logprobs: v.null(),
      finish_reason: v.pipe(
        v.picklist(['stop', 'length', 'content_filter']),
        v.description('`stop`: the answer is whole; `length` or `content_filter`: the model cut it short (its output limit, its provider\'s filter), and `content` is what it wrote before.'),
      ),
    }),
  ),
  usage: UsageSchema,
});
export type ChatCompletion = v.InferOutput<typeof ChatCompletionSchema>;

export const ModelSchema = v.object({ id: v.literal('quire'), object: v.literal('model'), created: integer, owned_by: v.pipe(v.string(), v.description('The organisation.')) });
export const ModelListSchema = v.object({ object: v.literal('list'), data: v.array(ModelSchema) });

/** Errors in OpenAI's shape, which its client libraries read. */
export const OpenAiErrorSchema = v.object({
  error: v.object({
    message: v.string(),
    type: v.pipe(v.string(), v.description('invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error or server_error.')),
    param: v.pipe(v.nullable(v.string()), v.description('The first broken field of a 400.')),
    code: v.pipe(v.string(), v.description("Quire's machine code: invalid_request, unauthorized, not_found, rate_limited, model_failed, …")),
    details: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
  }),
});
