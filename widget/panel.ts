import { ask, type AssistantClientOptions } from './assistant-client.js';
import { answerRenderer, linkTarget } from './render.js';
import { STYLES } from './styles.js';

export interface WidgetOptions extends AssistantClientOptions {
  title: string;
  /** Base URL of the docs site for site-relative links; unset: the host page's site. */
  docsUrl: string | undefined;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Mounts the launcher button and the chat panel in a shadow root of their
 * own. Keyboard: the launcher toggles the panel, focus goes to the question
 * box, Enter sends (Shift+Enter for a new line), Escape closes and returns
 * focus to the launcher.
 */
export function mountWidget(options: WidgetOptions): void {
  const host = el('div', { id: 'quire-widget' });
  const shadow = host.attachShadow({ mode: 'open' });
  const style = el('style', {}, STYLES);
  const root = el('div', { class: 'root' });
  const launcher = el('button', { class: 'launcher', type: 'button', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': 'quire-panel' }, options.title);
  const panel = el('section', { class: 'panel', id: 'quire-panel', role: 'dialog', 'aria-labelledby': 'quire-title', hidden: '' });
  const header = el('header');
  const heading = el('h2', { id: 'quire-title' }, options.title);
  const reset = el('button', { type: 'button' }, 'New chat');
  const close = el('button', { type: 'button', 'aria-label': 'Close' }, '✕');
  const log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite' });
  const empty = el('p', { class: 'empty' }, 'Ask a question about the documentation.');
  const form = el('form');
  const label = el('label', { class: 'sr', for: 'quire-question' }, 'Your question');
  const input = el('textarea', { id: 'quire-question', rows: '2', placeholder: 'Ask a question…', autocomplete: 'off' });
  const send = el('button', { type: 'submit' }, 'Send');
  header.append(heading, reset, close);
  log.append(empty);
  form.append(label, input, send);
  panel.append(header, log, form);
  root.append(launcher, panel);
  shadow.append(style, root);
  document.body.append(host);

  const render = answerRenderer({ docsUrl: options.docsUrl });
  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    launcher.setAttribute('aria-expanded', String(open));
    if (open) input.focus();
    else launcher.focus();
  };
  launcher.addEventListener('click', () => setOpen(panel.hidden));
  close.addEventListener('click', () => setOpen(false));
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') setOpen(false);
  });
  reset.addEventListener('click', () => {
    options.threads.clear();
    log.replaceChildren(empty);
    input.focus();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question || send.disabled) return;
    input.value = '';
    empty.remove();
    const answer = el('div', { class: 'answer' });
    const body = el('div', { class: 'answer-text' });
    answer.append(body);
    log.append(el('div', { class: 'question' }, question), answer);
    let text = '';
    const sources = el('ul', { class: 'sources' });
    let frame = 0;
    const paint = () => {
      frame = 0;
      body.innerHTML = render(text);
      log.scrollTop = log.scrollHeight;
    };
    send.disabled = true;
    log.setAttribute('aria-busy', 'true');
    ask(options, question, {
      text: (delta) => {
        text += delta;
        frame ||= requestAnimationFrame(paint);
      },
      source: (url, title) => {
        const href = linkTarget(url, options.docsUrl);
        if (!href) return;
        if (!sources.isConnected) answer.append(el('p', { class: 'sources-title' }, 'Sources'), sources);
        const item = el('li');
        item.append(el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, title));
        sources.append(item);
      },
      error: (message) => answer.append(el('p', { class: 'error', role: 'alert' }, message)),
    })
      .catch(() => answer.append(el('p', { class: 'error', role: 'alert' }, 'The assistant could not be reached.')))
      .finally(() => {
        if (frame) cancelAnimationFrame(frame);
        paint();
        send.disabled = false;
        log.removeAttribute('aria-busy');
        input.focus();
      });
  });
}
