/**
 * A docs site's chat on AI SDK 5: `useChat` from @ai-sdk/react 2 with the
 * `DefaultChatTransport` of ai 5, on the v2 endpoint, as its documentation
 * shows. The thread id and key come from the message metadata.
 */
import { createElement as h, useRef, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat } from 'ai-react-v2';
import { DefaultChatTransport, type UIMessage } from 'ai-v5';
import { field, pageConfig, splitSuggestions } from './page-config.js';

const config = pageConfig();
const transport = new DefaultChatTransport({
  api: `${config.api}/discovery/v2/assistant/${config.domain}/message`,
  headers: { authorization: `Bearer ${config.key}` },
  body: { fp: 'anonymous' },
});

function Message({ message }: { message: UIMessage }) {
  const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const { answer, suggestions } = splitSuggestions(text);
  const sources = message.parts.flatMap((p) => (p.type === 'source-url' ? [p] : []));
  return h(
    'article',
    { 'data-role': message.role },
    h('p', { className: 'text' }, answer),
    sources.length > 0 &&
      h('ul', { className: 'sources' }, ...sources.map((s) => h('li', { key: s.sourceId }, h('a', { href: s.url }, s.title ?? s.url)))),
    suggestions.length > 0 &&
      h('nav', { className: 'suggestions' }, ...suggestions.map((s) => h('a', { key: s.path, href: s.path }, s.title))),
  );
}

function App() {
  const { messages, sendMessage, status, error } = useChat({ transport });
  const [input, setInput] = useState('');
  const thread = useRef<{ threadId?: string; threadKey?: string }>({});
  for (const m of messages) {
    const threadId = field(m.metadata, 'threadId');
    const threadKey = field(m.metadata, 'threadKey');
    if (threadId) thread.current.threadId = threadId;
    if (threadKey) thread.current.threadKey = threadKey;
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sendMessage({ text: input }, { body: { ...thread.current } });
    setInput('');
  };
  return h(
    'div',
    null,
    ...messages.map((m) => h(Message, { key: m.id, message: m })),
    h('output', { id: 'status' }, status),
    h('output', { id: 'thread' }, thread.current.threadId ?? ''),
    error && h('p', { id: 'error' }, error.message),
    h(
      'form',
      { onSubmit: submit },
      h('input', { id: 'question', value: input, onChange: (e: { target: { value: string } }) => setInput(e.target.value) }),
      h('button', { type: 'submit' }, 'Ask'),
    ),
  );
}

const root = document.getElementById('app');
if (root) createRoot(root).render(h(App));
