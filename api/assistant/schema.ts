import * as v from 'valibot';

/**
 * The assistant request bodies of API.md. Unknown top-level and message fields
 * are allowed on purpose: the AI SDK clients add `id`, `trigger`, `messageId`,
 * `metadata`, `createdAt`… and must not be refused for it.
 */

const MAX_MESSAGES = 200;

/** A part of a message: its text, or a tool step sent back. */
export const MessagePart = v.pipe(
  v.looseObject({ type: v.string('must be a string'), text: v.optional(v.pipe(v.string('must be a string'), v.description('Required on `text` parts.'))) }),
  v.check((p) => p.type !== 'text' || typeof p.text === 'string', 'a text part needs a string `text`'),
  v.description('Tool parts a client sends back (the `search` step) are accepted and not read.'),
);

const parts = v.array(MessagePart, 'must be an array of parts');

const messageId = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters'));

const v2Message = v.looseObject({
  id: messageId,
  role: v.picklist(['user', 'assistant', 'system'], 'must be user, assistant or system'),
  parts,
  // A v1 message (with `content`) sent here is the wrong endpoint, not a variant.
  content: v.optional(v.never('is a v1 field; send v1 messages to /discovery/v1/assistant/{domain}/message')),
});

/** AI SDK 4 before 4.2 sends no `parts`; 4.2 and later send both. */
const v1Message = v.pipe(
  v.looseObject({
    id: messageId,
    role: v.picklist(['user', 'assistant', 'system', 'data'], 'must be user, assistant, system or data'),
    content: v.string('is required (v1 messages carry their text in `content`)'),
    parts: v.optional(parts),
  }),
  v.description('AI SDK 4: `content` always; `parts` from 4.2 on (when both are there, the text parts win).'),
);

export type V2Message = v.InferOutput<typeof v2Message>;
export type V1Message = v.InferOutput<typeof v1Message>;

/** The text a message says: its text parts, or (v1) its `content` when it has none. */
export function messageText(m: { parts?: Array<{ type: string; text?: string | undefined }> | undefined; content?: string | undefined }): string {
  const fromParts = (m.parts ?? [])
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('');
  return fromParts.trim() ? fromParts : (m.content ?? '');
}

const endsWithUserText = (msgs: Array<V2Message | V1Message>) => {
  const last = msgs.at(-1);
  return last?.role === 'user' && messageText(last).trim().length > 0;
};

/** A piece of the page the reader asks about (a code block, a selection). */
export const ContextItem = v.strictObject({
  type: v.picklist(['code', 'textSelection'], 'must be code or textSelection'),
  value: v.pipe(v.string('must be a string'), v.maxLength(20_000, 'must be at most 20000 characters')),
  path: v.optional(v.string('must be a string')),
  elementId: v.optional(v.string('must be a string')),
});

/** What the search of an answer keeps to; the v1 and v2 bodies take the same. */
export const SearchFilter = v.strictObject({
  version: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.description('Only pages of that version and pages of no version are searched. Without it, when the pages found are of several versions, the answer keeps to the version of the best of them.'),
    ),
  ),
  language: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.description(
        "A BCP 47 tag: only pages in that language and pages of no language are searched. Without it, a question is scoped to the language of the `currentPath` page when it has one; else, when the pages found are in several languages, to the one the question's function words tell.",
      ),
    ),
  ),
  groups: v.optional(v.array(v.string('must be a string'), 'must be an array of strings')),
});

const common = {
  fp: v.pipe(
    v.string('is required and must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(256, 'must be at most 256 characters'),
    v.description('The reader’s fingerprint.'),
  ),
  threadId: v.pipe(
    v.optional(
      v.nullable(
        v.pipe(
          v.string('must be a string'),
          v.minLength(1, 'must not be empty'),
          v.maxLength(128, 'must be at most 128 characters'),
          // The id is answered back in X-Thread-Id: only characters a header may carry (the server's ids are UUIDs).
          v.regex(/^[A-Za-z0-9._:-]+$/, 'must be a thread id this API returned (letters, digits, . _ : -)'),
        ),
      ),
    ),
    v.description('Continue this thread (needs `threadKey`); absent: the server starts a thread.'),
  ),
  /** The key handed out with a new thread; required with `threadId` to continue it. */
  threadKey: v.pipe(
    v.optional(v.nullable(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')))),
    v.description('The key handed out with the thread. Missing or wrong, the thread answers 404 like an unknown one.'),
  ),
  retrievalPageSize: v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(50, 'must be at most 50')),
    5,
  ),
  filter: v.optional(v.nullable(SearchFilter)),
  context: v.optional(v.pipe(v.array(ContextItem, 'must be an array'), v.maxLength(20, 'must have at most 20 items'))),
  currentPath: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(200, 'must be at most 200 characters'),
      v.description("The path of the page the reader is on: its text joins the prompt, and its language scopes the search unless `filter.language` names one."),
    ),
  ),
};

const messagesOf = <T extends v.GenericSchema<unknown, V2Message | V1Message>>(item: T) =>
  v.pipe(
    v.array(item, 'is required and must be an array of messages'),
    v.minLength(1, 'must have at least 1 message'),
    v.maxLength(MAX_MESSAGES, `must have at most ${MAX_MESSAGES} messages`),
    v.check(endsWithUserText, 'the last message must be a user message with text'),
    v.description('The conversation; the last message must be a user message with text (not only whitespace).'),
  );

/** The body rules of API.md; unknown fields (the AI SDKs add several) are allowed. */
export const V2Body = v.pipe(
  v.looseObject({
    ...common,
    messages: messagesOf(v2Message),
    trigger: v.pipe(
      v.optional(v.string('must be a string')),
      v.description(
        'AI SDK 5 and later: `regenerate-message` answers a thread\'s exchange again (the one `messageId` names, else the last): the new answer replaces it, and the exchanges after it, in the thread.',
      ),
    ),
    messageId: v.pipe(v.optional(v.string('must be a string')), v.description('With `trigger: regenerate-message`: the assistant message answered again.')),
  }),
  // The example as sent; the schema's output adds the default `retrievalPageSize`.
  v.examples([{ fp: 'reader-1', retrievalPageSize: 5, messages: [{ id: 'm1', role: 'user' as const, parts: [{ type: 'text', text: 'How do I install the CLI?' }] }] }]),
);
export const V1Body = v.pipe(
  v.looseObject({ ...common, messages: messagesOf(v1Message) }),
  v.examples([{ fp: 'reader-1', retrievalPageSize: 5, messages: [{ id: 'm1', role: 'user' as const, content: 'How do I install the CLI?' }] }]),
);

export type V2Request = v.InferOutput<typeof V2Body>;
export type V1Request = v.InferOutput<typeof V1Body>;
export type ContextItem = v.InferOutput<typeof ContextItem>;
