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

export const ChatCompletionBody = v.looseObject({
  model: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters')))),
  messages: v.pipe(
    v.array(message, 'is required and must be an array of messages'),
    v.minLength(1, 'must have at least 1 message'),
    v.maxLength(MAX_MESSAGES, `must have at most ${MAX_MESSAGES} messages`),
    v.check(endsWithUserText, 'the last message must be a user message with text'),
  ),
  stream: v.optional(v.nullable(v.boolean('must be a boolean'))),
  stream_options: v.optional(v.nullable(v.looseObject({ include_usage: v.optional(v.nullable(v.boolean('must be a boolean'))) }))),
  n: v.optional(v.nullable(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be 1'), v.maxValue(1, 'must be 1: one answer per request')))),
  /** Quire's extension, as on the assistant: the docs version, language and access groups to answer from. */
  filter: v.optional(
    v.nullable(
      v.strictObject({
        version: v.optional(filterField),
        language: v.optional(filterField),
        groups: v.optional(v.pipe(v.array(filterField, 'must be an array of strings'), v.maxLength(50, 'must have at most 50 items'))),
      }),
    ),
  ),
});

export type ChatCompletionRequest = v.InferOutput<typeof ChatCompletionBody>;
