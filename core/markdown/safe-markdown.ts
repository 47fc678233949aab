import MarkdownIt from 'markdown-it';

const SCHEME = /^\s*([a-z][a-z0-9+.-]*):/i;

/** A link a reader may follow: http(s), or relative to the page (no scheme at all). */
export function isSafeLink(url: string): boolean {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https';
}

/**
 * Markdown from the docs, the model or a pull request, rendered so nothing in
 * it runs: raw HTML is shown as text, and links and images keep only http(s)
 * or relative targets (no `javascript:`, no `data:`). One setup for the
 * server's pages and the widget.
 */
export function safeMarkdown() {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.validateLink = isSafeLink;
  const open = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    tokens[i]?.attrSet('rel', 'noopener noreferrer nofollow');
    return open(tokens, i, options, env, self);
  };
  return md;
}
