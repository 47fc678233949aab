/**
 * A docs site's chat on AI SDK 4, written the way Mintlify's published embed
 * example is: `useChat` from @ai-sdk/react 1 with `streamProtocol: 'data'`
 * and `sendExtraMessageFields: true` on the v1 endpoint; sources come from the
 * `search` tool invocation, links from the `suggestions` block, the thread
 * from the message annotation.
 */
import { createElement as h, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat, type Message as ChatMessage } from 'ai-react-v1';
import { field, pageConfig, splitSuggestions } from './page-config.js';

const config = pageConfig();

interface Hit {
  url: string;
  title: string;
}

/** The hits of the message's `search` tool invocation. */
function searchHits(message: ChatMessage): Hit[] {
  const search = (message.toolInvocations ?? []).find((t) => t.toolName === 'search' && t.state === 'result');
  const result: unknown = search && search.state === 'result' ? search.result : undefined;
  if (!Array.isArray(result)) return [];
  return result.flatMap((hit: unknown) => {
    const url = field(hit, 'url');
    const title = field(typeof hit === 'object' && hit !== null ? Reflect.get(hit, 'metadata') : undefined, 'title');
    return url && title ? [{ url, title }] : [];
  });
}

function Message({ message }: { message: ChatMessage }) {
  const { answer, suggestions } = splitSuggestions(message.content);
  const hits = message.role === 'assistant' ? searchHits(message) : [];
  return h(
    'article',
    { 'data-role': message.role },
    h('p', { className: 'text' }, answer),
    hits.length > 0 && h('ul', { className: 'sources' }, ...hits.map((s) => h('li', { key: s.url }, h('a', { href: s.url }, s.title)))),
    suggestions.length > 0 &&
      h('nav', { className: 'suggestions' }, ...suggestions.map((s) => h('a', { key: s.path, href: s.path }, s.title))),
  );
}

function App() {
  const { messages, input, handleInputChange, handleSubmit, status, error } = useChat({
    api: `${config.api}/discovery/v1/assistant/${config.domain}/message`,
    headers: { authorization: `Bearer ${config.key}` },
    body: { fp: 'anonymous' },
    streamProtocol: 'data',
    sendExtraMessageFields: true,
  });
  const thread: { threadId?: string; threadKey?: string } = {};
  for (const m of messages) {
    for (const a of m.annotations ?? []) {
      thread.threadId ??= field(a, 'threadId');
      thread.threadKey ??= field(a, 'threadKey');
    }
  }
  const submit = (event: FormEvent) => handleSubmit(event, { body: { ...thread } });
  return h(
    'div',
    null,
    ...messages.map((m) => h(Message, { key: m.id, message: m })),
    h('output', { id: 'status' }, status),
    h('output', { id: 'thread' }, thread.threadId ?? ''),
    error && h('p', { id: 'error' }, error.message),
    h('form', { onSubmit: submit }, h('input', { id: 'question', value: input, onChange: handleInputChange }), h('button', { type: 'submit' }, 'Ask')),
  );
}

const root = document.getElementById('app');
if (root) createRoot(root).render(h(App));
