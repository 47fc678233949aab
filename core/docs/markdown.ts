import MarkdownIt, { type Token } from 'markdown-it';

function parser(isMdx: boolean, inline: boolean) {
  const md = new MarkdownIt('default', { html: !isMdx });
  // MDX has no indented code: indentation inside components is layout.
  if (isMdx) md.disable('code');
  // The indexer needs block structure only; inline parsing runs on demand (headings, links).
  if (!inline) md.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);
  return md;
}

// Parsers are reusable and building one costs more than a small page's parse.
const PARSERS = {
  markdown: { blocks: parser(false, false), full: parser(false, true) },
  mdx: { blocks: parser(true, false), full: parser(true, true) },
};

/** Block tokens of Markdown text (inline content unparsed). */
export function markdownBlocks(text: string, isMdx: boolean): Token[] {
  return PARSERS[isMdx ? 'mdx' : 'markdown'].blocks.parse(text, {});
}

/** Tokens with inline children, for link targets. */
export function markdownTokens(text: string, isMdx: boolean): Token[] {
  return PARSERS[isMdx ? 'mdx' : 'markdown'].full.parse(text, {});
}

/** The text a reader sees in inline Markdown: `**Use** [the API](/api)` → `Use the API`. */
export function inlineText(markdown: string, isMdx: boolean): string {
  const [token] = PARSERS[isMdx ? 'mdx' : 'markdown'].full.parseInline(markdown, {});
  let out = '';
  for (const child of token?.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') out += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') out += ' ';
    else if (child.type === 'image') out += child.children?.map((c: Token) => c.content).join('') ?? '';
  }
  return out.trim();
}

const FENCE_LINE = /^\s*(`{3,}|~{3,})/;

/**
 * Lines of Markdown without their HTML comments (`<!-- … -->`, which the site never shows: authors'
 * notes), fenced and inline code left alone. A comment over several lines leaves them empty, so
 * every line keeps its number. `open` and `close` name another kind of comment (MDX's `{/* … *\/}`).
 */
export function withoutHtmlComments(lines: string[], open = '<!--', close = '-->'): string[] {
  if (!lines.some((line) => line.includes(open))) return lines;
  let fence: string | undefined;
  let inComment = false;
  return lines.map((line) => {
    if (!inComment) {
      const marker = FENCE_LINE.exec(line)?.[1];
      if (fence) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && !line.trim().slice(marker.length).trim()) fence = undefined;
        return line;
      }
      if (marker) {
        fence = marker;
        return line;
      }
    }
    let out = '';
    let at = 0;
    while (at < line.length) {
      if (inComment) {
        const end = line.indexOf(close, at);
        if (end < 0) return out;
        inComment = false;
        at = end + close.length;
        continue;
      }
      const ticks = /^`+/.exec(line.slice(at))?.[0];
      const codeEnd = ticks ? line.indexOf(ticks, at + ticks.length) : -1;
      if (ticks && codeEnd >= 0) {
        // An inline code span: shown as written.
        out += line.slice(at, codeEnd + ticks.length);
        at = codeEnd + ticks.length;
      } else if (line.startsWith(open, at)) {
        inComment = true;
        at += open.length;
      } else {
        out += ticks ?? line[at];
        at += ticks?.length ?? 1;
      }
    }
    return out;
  });
}

/** A page's Markdown as readers and AI tools get it whole: without its authors' comments (HTML's, and in MDX `{/* … *\/}`). */
export function withoutComments(markdown: string, isMdx: boolean): string {
  const lines = withoutHtmlComments(markdown.split('\n'));
  return (isMdx ? withoutHtmlComments(lines, '{/*', '*/}') : lines).join('\n');
}
