import { isSafeLink, safeMarkdown } from '../core/markdown/safe-markdown.js';

const SUGGESTION = /^\((.+)\)\[(.+)\]$/;

export interface RenderOptions {
  /** Where the site-relative suggestion paths point; unset: the host page's own site. */
  docsUrl: string | undefined;
}

/** A suggestion or source target the reader may follow: http(s) or site-relative, resolved against the docs site. */
export function linkTarget(path: string, docsUrl: string | undefined): string | undefined {
  if (!isSafeLink(path)) return undefined;
  if (!docsUrl || !path.startsWith('/')) return path;
  return `${docsUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * The answer's Markdown as HTML that runs nothing (raw HTML shown as text,
 * only http(s) or relative links), with its `suggestions` block turned into
 * a list of links to the pages it names.
 */
export function answerRenderer(options: RenderOptions): (markdown: string) => string {
  const md = safeMarkdown();
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, i, opts, env, self) => {
    const token = tokens[i];
    if (!token || token.info.trim() !== 'suggestions') return fence ? fence(tokens, i, opts, env, self) : '';
    const links = token.content
      .split('\n')
      .map((line) => SUGGESTION.exec(line.trim()))
      .flatMap((m) => {
        const href = m?.[2] ? linkTarget(m[2], options.docsUrl) : undefined;
        if (!m?.[1] || !href) return [];
        return [`<li><a href="${md.utils.escapeHtml(href)}">${md.utils.escapeHtml(m[1])}</a></li>`];
      });
    return links.length > 0 ? `<nav class="suggestions" aria-label="Related pages"><ul>${links.join('')}</ul></nav>` : '';
  };
  return (markdown) => md.render(markdown);
}
