import { ask, eraseThread, type AssistantClientOptions } from './assistant-client.js';
import type { Failure } from './failures.js';
import { answerRenderer, linkTarget, type LinkBase } from '../core/markdown/answer.js';
import { AnswerSources, siteOf } from '../core/markdown/answer-sources.js';
import { STYLES } from './styles.js';

export interface WidgetOptions extends AssistantClientOptions {
  /** `data-title`; unset: "Ask AI", in the widget's language. */
  title: string | undefined;
  /** The page's `<html lang>` ("" when it has none): the language of the reader's question, its answer and `data-title`. */
  pageLang: string;
  /** The docs site links go to (`data-docs-url`); unset: the domain's base URL, as its search hits show it. */
  docsUrl: string | undefined;
}

/**
 * The id of the panel's note "(opens in a new tab)", in the widget's language: every link the widget shows
 * opens in a new tab, and names the note as its description (`aria-describedby`), so a screen reader says so.
 */
const NEW_TAB_NOTE = 'quire-new-tab';

/** How long the status region keeps what it said: ample for a screen reader to have taken it. */
const ANNOUNCED_MS = 3000;

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
 * focus to the launcher. While an answer comes, focus stays where the reader
 * puts it.
 */
export function mountWidget(options: WidgetOptions): void {
  const host = el('div', { id: 'quire-widget' });
  const shadow = host.attachShadow({ mode: 'open' });
  const style = el('style', {}, STYLES);
  const { words } = options;
  // The widget's own words are in its language, marked so on its root: a screen reader says them in that
  // language's voice. The reader's question and its answer, and a title the page gives, keep the page's language.
  const root = el('div', { class: 'root', lang: words.lang });
  const readerLang: Record<string, string> = options.pageLang.toLowerCase() === words.lang.toLowerCase() ? {} : { lang: options.pageLang };
  const title = options.title ?? words.title;
  const titleLang = options.title === undefined ? {} : readerLang;
  const launcher = el('button', { class: 'launcher', type: 'button', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': 'quire-panel', ...titleLang }, title);
  const panel = el('section', { class: 'panel', id: 'quire-panel', role: 'dialog', 'aria-labelledby': 'quire-title', hidden: '' });
  const header = el('header');
  const heading = el('h2', { id: 'quire-title', ...titleLang }, title);
  const reset = el('button', { type: 'button', class: 'new' }, words.newConversation);
  // Shown while a conversation is kept: the reader may have it erased on the server, not only forgotten here.
  const erase = el('button', { type: 'button', class: 'new' }, words.deleteConversation);
  const close = el('button', { type: 'button', 'aria-label': words.close }, '✕');
  // Focusable, so a keyboard can scroll a long answer that has no link to stop on. Not live: an answer is painted
  // token by token, and `aria-busy` does not hold that back alike in every screen reader (NVDA then says nothing,
  // others each token); the announcer below says each answer, and its error, once, complete.
  const log = el('div', { class: 'log', role: 'log', 'aria-live': 'off', 'aria-label': words.conversation, tabindex: '0' });
  const announcer = el('p', { class: 'sr', role: 'status' });
  // Hidden, and read only as the description of the links that name it.
  const newTab = el('span', { id: NEW_TAB_NOTE, hidden: '' }, words.newTab);
  const empty = el('p', { class: 'empty' }, words.empty);
  const resumed = el('p', { class: 'resumed', role: 'status' }, words.resumed);
  const form = el('form');
  const label = el('label', { class: 'sr', for: 'quire-question' }, words.question);
  // Questions and answers take their own text's direction (Arabic on an English page, English on a Hebrew one).
  const input = el('textarea', { id: 'quire-question', rows: '2', placeholder: words.placeholder, autocomplete: 'off', dir: 'auto', ...readerLang });
  const send = el('button', { type: 'submit' }, words.send);
  header.append(heading, reset, erase, close);
  // A saved thread goes on where it stopped; the reader is told so, and may start afresh.
  const resumedThread = options.threads.load()?.threadId;
  log.append(...(resumedThread ? [resumed] : [empty]));
  form.append(label, input, send);
  panel.append(header, log, announcer, newTab, form);
  // What the announcer says stays only until it has been said: a screen reader takes a live region's words as they
  // change, and left there, the copy of the last answer would be read a second time, beside the answer itself, by a
  // reader who browses the panel. It goes a few seconds on, or at once when the reader moves into the conversation.
  let hushing = 0;
  const hush = () => {
    clearTimeout(hushing);
    announcer.replaceChildren();
  };
  const announce = (...parts: Array<Node | string>) => {
    clearTimeout(hushing);
    announcer.replaceChildren(...parts);
    hushing = window.setTimeout(hush, ANNOUNCED_MS);
  };
  log.addEventListener('focusin', hush);
  root.append(launcher, panel);
  shadow.append(style, root);
  document.body.append(host);

  const showErase = () => (erase.hidden = !options.threads.load());
  // A failure is said in the widget's language; the server's English message, for a reader who reports the
  // problem, stays folded beneath it, marked as English (its summary in the widget's language).
  const showFailure = (answer: HTMLElement, failure: Failure) => {
    answer.append(el('p', { class: 'error' }, failure.said));
    if (!failure.detail) return;
    const details = el('details', { class: 'error-detail', lang: 'en' });
    details.append(el('summary', { lang: words.lang }, words.serverSaid), el('span', { dir: 'auto' }, failure.detail));
    answer.append(details);
  };
  showErase();
  const render = answerRenderer(words, NEW_TAB_NOTE);
  // The domain's site is learned from the first search hits: site-relative links resolve against it.
  const base: LinkBase = { docsUrl: options.docsUrl, site: undefined };
  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    launcher.setAttribute('aria-expanded', String(open));
    if (open) input.focus();
    else launcher.focus();
  };
  launcher.addEventListener('click', () => setOpen(panel.hidden));
  close.addEventListener('click', () => setOpen(false));
  // Enter or Escape while an input method composes a word (Japanese, Chinese, Korean…) is the input method's: it confirms or cancels the word.
  const composing = (event: KeyboardEvent) => event.isComposing || event.keyCode === 229;
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !composing(event)) setOpen(false);
  });
  reset.addEventListener('click', () => {
    options.threads.clear();
    log.replaceChildren(empty);
    hush();
    showErase();
    input.focus();
  });
  erase.addEventListener('click', () => {
    if (erase.disabled) return;
    erase.disabled = true;
    void eraseThread(options).then((gone) => {
      erase.disabled = false;
      // Said in the log, where a sighted reader looks, and by the status region to a screen reader.
      const outcome = gone ? words.deleted : words.notDeleted;
      if (gone) log.replaceChildren(el('p', { class: 'resumed' }, outcome));
      else log.append(el('p', { class: 'error' }, outcome));
      announce(outcome);
      showErase();
      if (gone) input.focus();
    });
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !composing(event)) {
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
    // A screen reader hears that the question was taken, rather than silence until the answer is whole.
    announce(words.answering);
    const asked = el('div', { class: 'question', dir: 'auto', ...readerLang }, question);
    const answer = el('div', { class: 'answer' });
    const body = el('div', { class: 'answer-text', ...readerLang });
    const list = el('ol', { class: 'sources', 'aria-label': words.sources });
    answer.append(body);
    log.append(asked, answer);
    // The answer is read from its beginning: as it grows the question rises to the top of the log, and no further.
    let anchored = false;
    const anchor = () => {
      if (anchored) return;
      const target = asked.offsetTop - 12;
      log.scrollTop = target;
      anchored = log.scrollTop >= target - 1;
    };
    anchor();
    let text = '';
    const sources = new AnswerSources();
    let frame = 0;
    const paint = () => {
      frame = 0;
      const rendered = render(text, sources, base);
      body.innerHTML = rendered.html;
      const items = sources.listed(rendered.cited).flatMap((source) => {
        const href = linkTarget(source.url, base);
        if (!href) return [];
        const item = el('li');
        item.append(el('a', { href, target: '_blank', rel: 'noopener noreferrer', 'aria-describedby': NEW_TAB_NOTE, ...readerLang }, source.title));
        return [item];
      });
      list.replaceChildren(...items);
      if (items.length > 0 && !list.isConnected) answer.append(el('p', { class: 'sources-title', 'aria-hidden': 'true' }, words.sources), list);
      anchor();
    };
    const repaint = () => {
      frame ||= requestAnimationFrame(paint);
    };
    // Send is disabled while the answer comes: focus on it would be lost to the page, so it moves to the question box.
    if (shadow.activeElement === send) input.focus();
    send.disabled = true;
    // Not while an answer comes: the exchange it writes would outlive the erasure.
    erase.disabled = true;
    log.setAttribute('aria-busy', 'true');
    ask(options, question, {
      hits: (hits) => {
        for (const hit of hits) {
          sources.addHit(hit.url, hit.title);
          base.site ??= siteOf(hit.url, hit.path);
        }
      },
      text: (delta) => {
        text += delta;
        repaint();
      },
      source: (id, url, title) => {
        sources.addSource({ id, url, title });
        repaint();
      },
      error: (failure) => showFailure(answer, failure),
    })
      .catch(() => answer.append(el('p', { class: 'error' }, words.unreachable)))
      .finally(() => {
        if (frame) cancelAnimationFrame(frame);
        paint();
        // An error is said with the answer, not as an alert from inside the busy log, which NVDA would not read.
        // As it reads on screen (innerText): the words of two blocks, two suggested pages, kept apart.
        // The answer's words in the page's language, the widget's errors in its own.
        const said = [body, ...answer.querySelectorAll<HTMLElement>('.error')].filter((node) => node.innerText);
        announce(...said.flatMap((node, i) => [...(i > 0 ? ['\n'] : []), el('span', node === body ? readerLang : {}, node.innerText)]));
        // The server had forgotten the saved thread (expired), and the answer started a new one.
        if (options.threads.load()?.threadId !== resumedThread) resumed.remove();
        send.disabled = false;
        erase.disabled = false;
        showErase();
        log.removeAttribute('aria-busy');
      });
  });
}
