import MarkdownIt from 'markdown-it';

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
/** What a relative link is resolved against to learn its scheme (https:); never a target itself. */
const RELATIVE_BASE = 'https://x.invalid/';

/**
 * A link a reader may follow: http(s), mailto, or relative to the page. Its scheme is the one a
 * browser would follow, from the URL parser: it drops tabs, newlines and leading control
 * characters, so `java\tscript:` and `\x01javascript:` are `javascript:` there, whatever a
 * pattern on the text would make of them.
 */
export function isSafeLink(url: string): boolean {
  try {
    return SAFE_SCHEMES.has(new URL(url, RELATIVE_BASE).protocol);
  } catch {
    return false;
  }
}

/**
 * Markdown from the docs, the model or a pull request, rendered so nothing in
 * it runs: raw HTML is shown as text, and links and images keep only http(s),
 * mailto or relative targets (no `javascript:`, no `data:`). One setup for the
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
