import type { StateCore, Token } from 'markdown-it';
import type { AnswerSources, Source } from './answer-sources.js';
import { isSafeLink, safeMarkdown } from './safe-markdown.js';

const SUGGESTION = /^\((.+)\)\[(.+)\]$/;
/** `[3]`: a citation of the server that numbers passages, or the text of a link the server made of one. */
const MARKER = /\[(\d{1,3})\]/g;
const MARKER_TEXT = /^\s*\[?\d{1,3}\]?\s*$/;

/**
 * What an answer's rendering says in words of its own, in the language of whoever shows it: the widget's
 * words, or the console's English.
 */
export interface AnswerWords {
  /** The text of a link to an image that has no alt text. */
  image: string;
  /** The name of the list of related pages a `suggestions` block becomes. */
  relatedPages: string;
}

/** The blocks whose text direction the browser finds from their first letters (`dir="auto"`). */
const BLOCKS = new Set(['paragraph_open', 'heading_open', 'list_item_open', 'blockquote_open', 'th_open', 'td_open']);

/**
 * Where the answer's links go. `docsUrl` is the page's `data-docs-url`;
 * `site` is the domain's base URL as the search hits show it.
 */
export interface LinkBase {
  docsUrl: string | undefined;
  site: string | undefined;
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

/**
 * A link as the server meant it: a site-relative path on the domain's site
 * (the docs site when that is unknown). What `[n]` markers are matched on.
 */
function absolute(path: string, base: LinkBase): string {
  const root = base.site ?? base.docsUrl;
  return root && path.startsWith('/') && !path.startsWith('//') ? `${trimmed(root)}${path}` : path;
}

/**
 * A suggestion, source or answer link the reader may follow (http(s), mailto
 * or relative), honouring `data-docs-url`: site-relative paths, and links on
 * the domain's site, go to the docs site it names.
 */
export function linkTarget(path: string, base: LinkBase): string | undefined {
  if (!isSafeLink(path)) return undefined;
  const url = absolute(path, base);
  if (!base.docsUrl) return url;
  if (url.startsWith('/') && !url.startsWith('//')) return `${trimmed(base.docsUrl)}${url}`;
  const site = base.site && trimmed(base.site);
  if (site && (url === site || url.startsWith(`${site}/`) || url.startsWith(`${site}#`))) return `${trimmed(base.docsUrl)}${url.slice(site.length)}`;
  return url;
}

export interface RenderedAnswer {
  html: string;
  /** The cited pages (their keys), in order of first citation: citation `[n]` is `cited[n - 1]`. */
  cited: string[];
}

/** What one render reads and writes beside the Markdown. */
interface CitationEnv {
  sources: AnswerSources;
  base: LinkBase;
  cited: string[];
}

type TokenClass = StateCore['Token'];

function citationNumber(env: CitationEnv, key: string): number {
  const at = env.cited.indexOf(key);
  if (at >= 0) return at + 1;
  env.cited.push(key);
  return env.cited.length;
}

/** `[n]`, a link to the cited page, named for it: a screen reader's list of links says more than "[1]". */
function marker(TokenOf: TokenClass, source: Source, n: number, href: string): Token[] {
  const open = new TokenOf('link_open', 'a', 1);
  open.attrs = [
    ['href', href],
    ['class', 'cite'],
    ['title', source.title],
    ['aria-label', `[${n}] ${source.title}`],
  ];
  const text = new TokenOf('text', '', 0);
  text.content = `[${n}]`;
  return [open, text, new TokenOf('link_close', 'a', -1)];
}

/** A text token with its `[N]` markers that name a source turned into numbered links. */
function linkMarkers(TokenOf: TokenClass, token: Token, env: CitationEnv): Token[] {
  const out: Token[] = [];
  let from = 0;
  const rest = (end: number) => {
    if (end <= from) return;
    const text = new TokenOf('text', '', 0);
    text.content = token.content.slice(from, end);
    out.push(text);
  };
  for (const m of token.content.matchAll(MARKER)) {
    const page = env.sources.byMarker(Number(m[1]));
    const href = page && linkTarget(page.source.url, env.base);
    if (!page || !href || m.index === undefined) continue;
    rest(m.index);
    out.push(...marker(TokenOf, page.source, citationNumber(env, page.key), href));
    from = m.index + m[0].length;
  }
  if (from === 0) return [token];
  rest(token.content.length);
  return out;
}

/** The index of the `link_close` that ends the link opened at `open`. */
function linkEnd(children: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < children.length; i++) {
    const type = children[i]?.type;
    if (type === 'link_open') depth++;
    if (type === 'link_close' && --depth === 0) return i;
  }
  return children.length - 1;
}

/**
 * An answer's images as links to them: an <img> would load as the answer
 * renders, from the docs page, and a prompt injection could plant a tracking
 * pixel that way. An image inside a link leaves only its text.
 */
function imagesAsLinks(TokenOf: TokenClass, children: Token[], words: AnswerWords): Token[] {
  let depth = 0;
  return children.flatMap((token) => {
    if (token.type === 'link_open') depth++;
    if (token.type === 'link_close') depth--;
    if (token.type !== 'image') return [token];
    const text = new TokenOf('text', '', 0);
    text.content = (token.children ?? []).map((t) => t.content).join('') || words.image;
    if (depth > 0) return [text];
    const open = new TokenOf('link_open', 'a', 1);
    open.attrs = [['href', token.attrGet('src') ?? '']];
    return [open, text, new TokenOf('link_close', 'a', -1)];
  });
}

/**
 * Numbers the citations of one inline run: a link to one of the answer's
 * pages becomes (or gains) a `[n]` marker, a bare `[N]` that names a source
 * becomes a linked `[n]`; `n` counts pages in order of first citation. Other
 * links resolve site-relative targets against the docs site.
 */
function cite(TokenOf: TokenClass, children: Token[], env: CitationEnv): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < children.length; i++) {
    const token = children[i]!;
    if (token.type === 'text') {
      out.push(...linkMarkers(TokenOf, token, env));
      continue;
    }
    if (token.type !== 'link_open') {
      out.push(token);
      continue;
    }
    const end = linkEnd(children, i);
    const inner = children.slice(i + 1, end);
    const close = children[end]!;
    i = end;
    const written = String(token.attrGet('href') ?? '');
    const href = linkTarget(written, env.base);
    const page = env.sources.byUrl(absolute(written, env.base));
    if (href) token.attrSet('href', href);
    if (!page || !href) {
      out.push(token, ...inner, close);
      continue;
    }
    const n = citationNumber(env, page.key);
    const label = inner.map((t) => t.content).join('');
    // A link whose text is only a number is the citation itself; a worded link keeps its words and gains the marker.
    if (MARKER_TEXT.test(label)) out.push(...marker(TokenOf, page.source, n, href));
    else out.push(token, ...inner, close, ...marker(TokenOf, page.source, n, linkTarget(page.source.url, env.base) ?? href));
  }
  return out;
}

/**
 * The answer's Markdown as HTML that runs and loads nothing (raw HTML shown
 * as text, images as links, only http(s), mailto or relative links), its
 * citations numbered and linked to the cited pages, and its `suggestions`
 * block turned into a list of links. The one renderer of answers: the widget
 * shows an answer with it as it comes, and the console a reader's thread as
 * the reader saw it.
 *
 * `newTabNote` is the id of the page's note "(opens in a new tab)", an id of
 * the caller's own, not of the answer: every link of an answer opens in a new
 * tab, and names the note as its description (`aria-describedby`), so a
 * screen reader says so.
 */
export function answerRenderer(words: AnswerWords, newTabNote: string): (markdown: string, sources: AnswerSources, base: LinkBase) => RenderedAnswer {
  const md = safeMarkdown();
  // What the render under way cites from; rendering is synchronous, so one at a time.
  let env: CitationEnv | undefined;
  md.core.ruler.push('quire_citations', (state) => {
    if (!env) return;
    for (const block of state.tokens) {
      // Images first: the links they become are resolved and cited like the others.
      if (block.type === 'inline' && block.children) block.children = cite(state.Token, imagesAsLinks(state.Token, block.children, words), env);
    }
  });
  // Each block takes its own text's direction, so an answer in Arabic reads right to left on an English page, and English left to right on an Arabic one.
  md.core.ruler.push('quire_direction', (state) => {
    for (const token of state.tokens) if (BLOCKS.has(token.type)) token.attrSet('dir', 'auto');
  });
  // Every link of an answer opens in a new tab, and says so.
  const linkOpen = md.renderer.rules.link_open ?? ((tokens, i, opts, _env, self) => self.renderToken(tokens, i, opts));
  md.renderer.rules.link_open = (tokens, i, opts, mdEnv, self) => {
    tokens[i]?.attrSet('target', '_blank');
    tokens[i]?.attrSet('aria-describedby', newTabNote);
    return linkOpen(tokens, i, opts, mdEnv, self);
  };
  // A table scrolls sideways in a box of its own, which takes focus as a code block does.
  md.renderer.rules.table_open = (tokens, i, opts, _mdEnv, self) => `<div class="table" tabindex="0">${self.renderToken(tokens, i, opts)}`;
  md.renderer.rules.table_close = (tokens, i, opts, _mdEnv, self) => `${self.renderToken(tokens, i, opts)}</div>`;
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, i, opts, mdEnv, self) => {
    const token = tokens[i];
    // A code block scrolls sideways rather than wrap: it takes focus, so the keyboard can scroll it too.
    if (!token || token.info.trim() !== 'suggestions') return (fence ? fence(tokens, i, opts, mdEnv, self) : '').replace(/^<pre>/, '<pre tabindex="0">');
    const links = token.content
      .split('\n')
      .map((line) => SUGGESTION.exec(line.trim()))
      .flatMap((m) => {
        const href = m?.[2] && env ? linkTarget(m[2], env.base) : undefined;
        if (!m?.[1] || !href) return [];
        return [`<li><a href="${md.utils.escapeHtml(href)}" target="_blank" rel="noopener noreferrer" aria-describedby="${newTabNote}">${md.utils.escapeHtml(m[1])}</a></li>`];
      });
    return links.length > 0 ? `<nav class="suggestions" aria-label="${md.utils.escapeHtml(words.relatedPages)}"><ul>${links.join('')}</ul></nav>` : '';
  };
  return (markdown, sources, base) => {
    const current: CitationEnv = { sources, base, cited: [] };
    env = current;
    try {
      return { html: md.render(markdown), cited: current.cited };
    } finally {
      env = undefined;
    }
  };
}
