/**
 * A `Chat` of each AI SDK version (the framework-free core behind `useChat`)
 * with an in-memory state, posting through `DefaultChatTransport`.
 */
import * as ai5 from 'ai-v5';
import * as ai6 from 'ai-v6';
import * as ai7 from 'ai-v7';
import { searchPartOf, type SearchToolReading, type UiPart, type V2Client } from './clients.js';

type Status = 'submitted' | 'streaming' | 'ready' | 'error';

class MemoryChatState<M> {
  status: Status = 'ready';
  error: Error | undefined = undefined;
  messages: M[] = [];
  pushMessage = (m: M) => void this.messages.push(m);
  popMessage = () => void this.messages.pop();
  replaceMessage = (i: number, m: M) => void (this.messages[i] = m);
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class Chat5 extends ai5.AbstractChat<ai5.UIMessage> {
  constructor(init: ai5.ChatInit<ai5.UIMessage>) {
    super({ ...init, state: new MemoryChatState<ai5.UIMessage>() });
  }
}
class Chat6 extends ai6.AbstractChat<ai6.UIMessage> {
  constructor(init: ai6.ChatInit<ai6.UIMessage>) {
    super({ ...init, state: new MemoryChatState<ai6.UIMessage>() });
  }
}
class Chat7 extends ai7.AbstractChat<ai7.UIMessage> {
  constructor(init: ai7.ChatInit<ai7.UIMessage>) {
    super({ ...init, state: new MemoryChatState<ai7.UIMessage>() });
  }
}

export interface ChatMessageView {
  id: string;
  role: string;
  text: string;
  sources: string[];
  threadId: string | undefined;
  threadKey: string | undefined;
  search: SearchToolReading | undefined;
}

export interface TestChat {
  send(text: string, body: Record<string, unknown>): Promise<void>;
  /** The Chat's `regenerate`: the last answer, or the one `messageId` names, asked again. */
  regenerate(body: Record<string, unknown>, messageId?: string): Promise<void>;
  messages(): ChatMessageView[];
  status(): string;
  errors: Error[];
  finished: ChatMessageView[];
}

function metadataField(meta: unknown, name: 'threadId' | 'threadKey'): string | undefined {
  if (typeof meta !== 'object' || meta === null || !(name in meta)) return undefined;
  const value: unknown = (meta as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

function view(m: { id: string; role: string; parts: UiPart[]; metadata?: unknown }): ChatMessageView {
  return {
    id: m.id,
    role: m.role,
    text: m.parts.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join(''),
    sources: m.parts.flatMap((p) => (p.type === 'source-url' && p.url ? [p.url] : [])),
    threadId: metadataField(m.metadata, 'threadId'),
    threadKey: metadataField(m.metadata, 'threadKey'),
    search: m.role === 'assistant' ? searchPartOf(m.parts) : undefined,
  };
}

/** A Chat of `client`'s version talking to `api` with the assistant key. */
export function testChat(client: V2Client, api: string, key: string): TestChat {
  const errors: Error[] = [];
  const finished: ChatMessageView[] = [];
  const common = {
    onError: (e: Error) => void errors.push(e),
    onFinish: ({ message }: { message: ai5.UIMessage | ai6.UIMessage | ai7.UIMessage }) => void finished.push(view(message)),
  };
  const headers = { authorization: `Bearer ${key}` };
  const chat =
    client === 'ai5'
      ? new Chat5({ ...common, transport: new ai5.DefaultChatTransport({ api, headers }) })
      : client === 'ai6'
        ? new Chat6({ ...common, transport: new ai6.DefaultChatTransport({ api, headers }) })
        : new Chat7({ ...common, transport: new ai7.DefaultChatTransport({ api, headers }) });
  return {
    send: (text, body) => chat.sendMessage({ text }, { body }),
    regenerate: (body, messageId) => chat.regenerate({ body, ...(messageId ? { messageId } : {}) }),
    messages: () => chat.messages.map(view),
    status: () => chat.status,
    errors,
    finished,
  };
}
