/**
 * The code blocks of a documentation passage, each with what introduces it: for an answer without
 * a model, where the command a reader asked for is often the answer itself.
 */
import { isHeading, sharedTerms } from './passage-sentences.js';

const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/;
/** Longer blocks are the page's to show: an answer quotes a command or a short snippet. */
const MAX_CODE_LINES = 15;
/** Fenced blocks that are not code a reader runs or copies. */
const NOT_CODE = new Set(['suggestions', 'mermaid', 'math']);

export interface CodeBlock {
  /** The block as quoted: its fence and language, its lines unchanged, its closing fence. */
  markdown: string;
  /** The prose line just before it when that line introduces it (ends in a colon), cleaned for quoting. */
  leadIn: string | undefined;
  /** The heading of the section it is in, as text. */
  heading: string | undefined;
  /** How many of the question's terms the block, its lead-in and its heading hold together. */
  shared: number;
}

/** A heading line as text: `## Install the SDK` and `**Install the SDK**` are `Install the SDK`. */
function headingText(line: string): string {
  return line
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(\*\*|__)(.*)\1:?$/, '$2')
    .replace(/\s+#+$/, '')
    .trim();
}

/** A prose line as quoted: tags and images out, relative links as their text, list and quote marks off. */
function proseText(line: string): string {
  const text = line
    .replace(/<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1')
    .replace(/^\s*(?:>\s*)+/, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return (text.match(/`/g)?.length ?? 0) % 2 === 1 ? text.replace(/`/g, '') : text;
}

/**
 * Every complete fenced block of the passage (a block the passage cuts off is left out: its end
 * is not known), of at most 15 lines, with its lead-in and heading and the question's terms they
 * share. Diagrams, formulas and the answer's own `suggestions` blocks are not code.
 */
export function codeBlocksOf(markdown: string, question: Set<string>): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let heading: string | undefined;
  /** The last prose line, and whether only blank lines came after it. */
  let prose: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const opener = FENCE.exec(line);
    if (!opener) {
      const text = line.trim();
      if (!text) continue;
      if (isHeading(text)) {
        heading = headingText(text);
        prose = undefined;
      } else prose = proseText(text);
      continue;
    }
    const fence = opener[1]!;
    const language = opener[2] ?? '';
    const closer = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const end = lines.findIndex((l, j) => j > i && closer.test(l));
    if (end < 0) break;
    // A block indented in a list item is quoted from its fence's column.
    const indent = line.length - line.trimStart().length;
    const body = lines.slice(i + 1, end).map((l) => (l.slice(0, indent).trim() === '' ? l.slice(indent) : l.trimStart()));
    const leadIn = prose && /[:：]$/.test(prose) ? prose : undefined;
    if (!NOT_CODE.has(language.toLowerCase()) && body.length > 0 && body.length <= MAX_CODE_LINES && body.some((l) => l.trim())) {
      const shared = sharedTerms([heading ?? '', leadIn ?? '', ...body].join('\n'), question);
      blocks.push({ markdown: [`${fence}${language}`, ...body, fence].join('\n'), leadIn, heading, shared });
    }
    prose = undefined;
    i = end;
  }
  return blocks;
}

/** The block that shares most of the question's terms (at least `atLeast`, and one), the first among equals. */
export function bestCodeBlock(markdown: string, question: Set<string>, atLeast: number): CodeBlock | undefined {
  let best: CodeBlock | undefined;
  for (const block of codeBlocksOf(markdown, question)) if (block.shared >= Math.max(1, atLeast) && block.shared > (best?.shared ?? 0)) best = block;
  return best;
}
