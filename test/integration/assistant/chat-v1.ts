/**
 * What ai@4's `useChat` does with `streamProtocol: 'data'` and
 * `sendExtraMessageFields: true`, on its own core (`callChatApi` from
 * `@ai-sdk/ui-utils`): keeps the messages, posts them whole, folds the stream
 * into the assistant message (tool invocations and annotations included).
 */
import { callChatApi, generateId, type UIMessage } from '@ai-sdk/ui-utils';

export interface V1Chat {
  send(text: string, body: Record<string, unknown>): Promise<UIMessage>;
  messages: UIMessage[];
}

export function v1Chat(api: string, key: string): V1Chat {
  const messages: UIMessage[] = [];
  return {
    messages,
    async send(text, body) {
      messages.push({ id: generateId(), role: 'user', content: text, parts: [{ type: 'text', text }], createdAt: new Date() });
      let last: UIMessage | undefined;
      await callChatApi({
        api,
        // sendExtraMessageFields: every field of every message goes out as the client keeps it.
        body: { id: 'chat-v1', messages: structuredClone(messages), ...body },
        streamProtocol: 'data',
        credentials: undefined,
        headers: { authorization: `Bearer ${key}` },
        abortController: undefined,
        restoreMessagesOnFailure: () => undefined,
        onResponse: undefined,
        onUpdate: ({ message }) => void (last = message),
        onFinish: undefined,
        onToolCall: undefined,
        generateId,
        fetch: undefined,
        lastMessage: messages.at(-1),
      });
      if (!last) throw new Error('no assistant message');
      messages.push(last);
      return last;
    },
  };
}
