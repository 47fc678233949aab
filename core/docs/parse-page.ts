import { readFrontmatter, type Frontmatter, type PageHead, type PageProblem } from './frontmatter.js';
import { stripInlineMdx, unpairedInlineTag } from './jsx-tag.js';
import { inlineText, markdownBlocks, markdownTokens, withoutHtmlComments } from './markdown.js';
import { MdxFlowError, scanMdxFlow, type MarkdownRun, type Segment } from './mdx-flow.js';

/** A top-level block of a page: what chunking cuts at and packs together. */
export interface PageBlock {
  kind: 'heading' | 'text';
  /** Heading level; 0 for other blocks. */
  depth: number;
  /** What a reader sees: heading text, or the block's Markdown without MDX markup. */
  text: string;
  /** Holds code (never cut, never used as overlap). */
  code: boolean;
}

export interface ParsedPage {
  frontmatter: Frontmatter;
  /** The source after the frontmatter. */
  body: string;
  blocks: PageBlock[];
  /** Internal and external link targets with their 1-based file line (Markdown links and component `href`s). */
  links(): PageLink[];
}

export interface PageLink {
  url: string;
  line: number;
}

/** A page Mintlify could not build: the reason and the 1-based line of the file. */
export class PageSyntaxError extends Error {
  override name = 'PageSyntaxError';
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(reason);
  }
}

export const isMdxFile = (file: string): boolean => /\.mdx$/i.test(file);

/**
 * Parses a page the one way the agent's validator and the indexer both read
 * it: frontmatter, then the MDX flow (components, code, imports), then
 * Markdown blocks. Throws PageSyntaxError for broken frontmatter or components.
 * `head` saves reading the frontmatter twice when the caller has it.
 */
export function parsePage(file: string, source: string, head: PageHead = readFrontmatter(source)): ParsedPage {
  if (head.problem) throw syntaxError(head.problem);
  const isMdx = isMdxFile(file);
  let segments: Segment[];
  const blocks: PageBlock[] = [];
  try {
    segments = isMdx ? scanMdxFlow(head.body) : [{ kind: 'markdown', line: 0, lines: head.body.split(/\r?\n/) }];
    for (const segment of segments) {
      if (segment.kind === 'markdown') blocks.push(...runBlocks(segment, isMdx));
      else blocks.push({ kind: 'text', depth: 0, text: segmentText(segment, isMdx), code: hasCode(segment) });
    }
  } catch (err) {
    if (err instanceof MdxFlowError) throw new PageSyntaxError(`MDX syntax error: ${err.reason}`, head.bodyLine + err.line + 1);
    throw err;
  }
  return {
    frontmatter: head.frontmatter,
    body: head.body,
    blocks: blocks.filter((b) => b.text),
    links: () => collectLinks(segments, isMdx, head.bodyLine),
  };
}

function syntaxError(problem: PageProblem): PageSyntaxError {
  return new PageSyntaxError(problem.message, problem.line);
}

/** The top-level blocks of a Markdown run: headings apart, other blocks as their source lines. */
function runBlocks(run: MarkdownRun, isMdx: boolean): PageBlock[] {
  const lines = withoutHtmlComments(run.lines);
  const blocks: PageBlock[] = [];
  const tokens = markdownBlocks(lines.join('\n'), isMdx);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.level !== 0 || token.nesting === -1 || !token.map) continue;
    const problem = isMdx && token.type !== 'fence' ? unpairedInlineTag(lines.slice(token.map[0], token.map[1]).join('\n')) : undefined;
    if (problem) throw new MdxFlowError(problem, run.line + token.map[0]);
    if (token.type === 'heading_open') {
      const content = tokens[i + 1]?.content ?? '';
      blocks.push({ kind: 'heading', depth: Number(token.tag.slice(1)), text: inlineText(isMdx ? stripInlineMdx(content) : content, isMdx), code: false });
      continue;
    }
    const [start, end] = token.map;
    const text = lines.slice(start, end).join('\n').trim();
    let code = token.type === 'fence' || token.type === 'code_block';
    // A list or quote with code inside stays whole too.
    for (let j = i + 1; !code && j < tokens.length && tokens[j]!.level > 0; j++) code = tokens[j]!.type === 'fence';
    blocks.push({ kind: 'text', depth: 0, text: isMdx ? stripInlineMdx(text) : text, code });
  }
  return blocks;
}

/** A component's text: its title in bold, then its children's text. */
function segmentText(segment: Segment, isMdx: boolean): string {
  if (segment.kind === 'code') return segment.text.trim();
  if (segment.kind === 'markdown') {
    const text = withoutHtmlComments(segment.lines).join('\n');
    const problem = unpairedInlineTag(text);
    if (problem) throw new MdxFlowError(problem, segment.line);
    return stripInlineMdx(text).trim();
  }
  const title = segment.attributes.title ? `**${segment.attributes.title}**` : '';
  const inner = segment.children.map((child) => segmentText(child, isMdx)).filter(Boolean);
  return [title, ...inner].filter(Boolean).join('\n\n');
}

function hasCode(segment: Segment): boolean {
  if (segment.kind === 'code') return true;
  if (segment.kind === 'markdown') return segment.lines.some((l) => /^\s*(```|~~~)/.test(l));
  return segment.children.some(hasCode);
}

function collectLinks(segments: Segment[], isMdx: boolean, bodyLine: number): PageLink[] {
  const links: PageLink[] = [];
  const visit = (list: Segment[]) => {
    for (const segment of list) {
      if (segment.kind === 'element') {
        const href = segment.attributes.href;
        if (href) links.push({ url: href, line: bodyLine + segment.line + 1 });
        visit(segment.children);
      } else if (segment.kind === 'markdown') {
        for (const token of markdownTokens(segment.lines.join('\n'), isMdx)) {
          if (token.type !== 'inline' || !token.map) continue;
          let line = bodyLine + segment.line + token.map[0] + 1;
          for (const child of token.children ?? []) {
            if (child.type === 'softbreak' || child.type === 'hardbreak') line++;
            const href = child.type === 'link_open' ? child.attrGet('href') : null;
            if (href !== null) links.push({ url: String(href), line });
          }
        }
      }
    }
  };
  visit(segments);
  return links;
}
