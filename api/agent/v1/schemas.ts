import * as v from 'valibot';

/** Messages in one create: a long conversation is welcome, a transcript dump is not. */
export const MAX_MESSAGES = 100;
/** Characters of one message, like a v2 prompt. */
export const MAX_MESSAGE_CHARS = 100_000;
/** Characters of all messages together: the system text rides in every turn's prompt. */
export const MAX_CONVERSATION_CHARS = 200_000;
export const MAX_BRANCH_CHARS = 200;
/** Jobs a list may skip: deeper pages are the v2 list's cursor's job. */
export const MAX_SKIP = 1000;
export const MAX_TAKE = 100;
export const DEFAULT_TAKE = 20;

const Message = v.object({
  role: v.picklist(['system', 'user', 'assistant'], 'role must be one of system, user, assistant'),
  content: v.pipe(v.string('content is required and must be a string'), v.maxLength(MAX_MESSAGE_CHARS, `content must be at most ${MAX_MESSAGE_CHARS} characters`)),
});
type Message = v.InferOutput<typeof Message>;

/** The user messages after the last assistant one hold the request; a conversation ending with the assistant asks nothing. */
function asksSomething(messages: Message[]): boolean {
  const spoken = messages.filter((m) => m.role !== 'system');
  const last = spoken.at(-1);
  if (!last || last.role !== 'user') return false;
  const since = spoken.slice(spoken.findLastIndex((m) => m.role === 'assistant') + 1);
  return since.some((m) => m.content.trim() !== '');
}

/**
 * A git branch name `git check-ref-format --branch` accepts, kept to the characters branch names
 * use in practice, so it is safe as a command argument and in a URL.
 */
export function isBranchName(name: string): boolean {
  return (
    /^[A-Za-z0-9._/-]+$/.test(name) &&
    !/^[-/.]|[/.]$|\.\.|\/\/|\/\.|\.lock(\/|$)/.test(name) &&
    name !== 'HEAD'
  );
}

const BRANCH_RULE = 'branch must be a git branch name: letters, digits and . _ - /, no "..", "//", "/." or ".lock", not starting with "-", "." or "/"';

export const CreateSessionBody = v.pipe(
  v.object({
    messages: v.pipe(
      v.array(Message, 'messages is required and must be an array'),
      v.description(
        '`system` messages are added to the agent’s system prompt for every turn; the `user` messages after the last `assistant` one are the request; earlier ones are shown to the model first. Must end with a `user` message that is not only whitespace; at most 200000 characters in all.',
      ),
      v.minLength(1, 'messages must not be empty'),
      v.maxLength(MAX_MESSAGES, `messages must hold at most ${MAX_MESSAGES} items`),
      v.check((ms) => ms.reduce((n, m) => n + m.content.length, 0) <= MAX_CONVERSATION_CHARS, `messages must hold at most ${MAX_CONVERSATION_CHARS} characters in all`),
      v.check(asksSomething, 'messages must end with a user message that is not only whitespace'),
    ),
    branch: v.optional(
      v.pipe(
        v.string('branch must be a string'),
        v.minLength(1, 'branch must not be empty'),
        v.maxLength(MAX_BRANCH_CHARS, `branch must be at most ${MAX_BRANCH_CHARS} characters`),
        v.regex(/^[A-Za-z0-9._/-]+$/, BRANCH_RULE),
        v.check(isBranchName, BRANCH_RULE),
        v.description('The branch to push to, created from the project’s branch when missing; not the project’s branch itself. Default `quire/<sessionId>`.'),
      ),
    ),
    asDraft: v.optional(v.pipe(v.boolean('asDraft must be true or false'), v.description('Open the pull request as a draft.'))),
    model: v.optional(v.pipe(v.string('model must be a string'), v.minLength(1, 'model must not be empty'), v.description('One the project allows; default the configured model.'))),
  }),
  v.examples([{ branch: 'docs/quickstart-troubleshooting', messages: [{ role: 'user' as const, content: 'Add a troubleshooting section to the quickstart' }] }]),
);
export type CreateSessionBody = v.InferOutput<typeof CreateSessionBody>;

const wholeNumber = (name: string, min: number, max: number, description: string) =>
  v.pipe(
    v.string(`${name} must be a whole number`),
    v.description(description),
    v.regex(/^\d{1,6}$/, `${name} must be a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

export const ListSessionsQuery = v.object({
  skip: v.optional(wholeNumber('skip', 0, MAX_SKIP, `Sessions to leave out from the newest: 0 to ${MAX_SKIP}.`), '0'),
  take: v.optional(wholeNumber('take', 1, MAX_TAKE, `Sessions to answer: 1 to ${MAX_TAKE}.`), String(DEFAULT_TAKE)),
});
