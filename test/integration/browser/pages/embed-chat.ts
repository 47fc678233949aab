/**
 * A help panel of an app, reading the v2 stream the way Mintlify's public
 * assistant embed example does: `useChat` (AI SDK 5), the answer's text
 * parts rendered as Markdown, and the sources taken from the `search` tool
 * part's result items (`url`, `path`, `metadata.title`), one entry per item,
 * with no de-duplication of its own: what the server sends is what the reader sees.
 */
import { createElement as h, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat } from 'ai-react-v2';
import { DefaultChatTransport, type UIMessage } from 'ai-v5';
import MarkdownIt from 'markdown-it';
import { field, pageConfig } from './page-config.js';

const config = pageConfig();
const markdown = new MarkdownIt({ html: false });
const transport = new DefaultChatTransport({
  api: `${config.api}/discovery/v2/assistant/${config.domain}/message`,
  headers: { authorization: `Bearer ${config.key}` },
  body: { fp: 'anonymous', retrievalPageSize: 5 },
});

interface Hit {
  url: string;
  path: string;
  title: string;
}

/** The result items of the message's `search` tool part. */
function searchHits(message: UIMessage): Hit[] {
  return message.parts.flatMap((part) => {
    if (part.type !== 'tool-search' || part.state !== 'output-available') return [];
    const output: unknown = part.output;
    if (!Array.isArray(output)) return [];
    return output.flatMap((hit: unknown) => {
      const url = field(hit, 'url');
      const path = field(hit, 'path') ?? '';
      const title = field(typeof hit === 'object' && hit !== null ? Reflect.get(hit, 'metadata') : undefined, 'title') ?? path;
      return url ? [{ url, path, title }] : [];
    });
  });
}

function Message({ message }: { message: UIMessage }) {
  const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const hits = message.role === 'assistant' ? searchHits(message) : [];
  return h(
    'article',
    { 'data-role': message.role },
    h('div', { className: 'text', dangerouslySetInnerHTML: { __html: markdown.render(text) } }),
    hits.length > 0 && h('ol', { className: 'sources' }, ...hits.map((s, i) => h('li', { key: i }, h('a', { href: s.url, 'data-path': s.path }, s.title)))),
  );
}

function App() {
  const { messages, sendMessage, status, error } = useChat({ transport });
  const [input, setInput] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sendMessage({ text: input });
    setInput('');
  };
  return h(
    'div',
    null,
    ...messages.map((m) => h(Message, { key: m.id, message: m })),
    h('output', { id: 'status' }, status),
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
