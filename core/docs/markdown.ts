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
