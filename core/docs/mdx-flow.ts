import { readJsxTag, skipExpression } from './jsx-tag.js';

/** Components inside components, at most: far beyond any docs layout, well within the stack of the recursive readers. */
export const MAX_ELEMENT_DEPTH = 100;

/** Markdown lines between MDX constructs, handed to the Markdown parser. */
export interface MarkdownRun {
  kind: 'markdown';
  /** 0-based line of the body where the run starts. */
  line: number;
  /** The run's lines, common indentation removed (MDX has no indented code). */
  lines: string[];
}

export interface CodeFence {
  kind: 'code';
  line: number;
  text: string;
}

/** A component in flow position: `<Note>` … `</Note>` on their own lines, or `<Card … />`. */
export interface JsxElement {
  kind: 'element';
  line: number;
  name: string;
  attributes: Record<string, string>;
  children: Segment[];
}

export type Segment = MarkdownRun | CodeFence | JsxElement;

/** Broken MDX: the reason and the 0-based body line. */
export class MdxFlowError extends Error {
  override name = 'MdxFlowError';
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(reason);
  }
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})(.*)$/;

/**
 * Splits an MDX body into Markdown runs, fenced code and components, the way
 * the MDX grammar sees its flow: fences at any indentation, `import`/`export`
 * blocks and `{…}` expressions dropped, tag-only lines opening and closing
 * components. An unclosed or mismatched component is an MdxFlowError.
 */
export function scanMdxFlow(body: string): Segment[] {
  const lines = body.split(/\r?\n/);
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const src = lines.join('\n');
  const lineAt = (pos: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const root: Segment[] = [];
  const stack: JsxElement[] = [];
  let run: { line: number; lines: string[] } | undefined;
  const siblings = () => stack[stack.length - 1]?.children ?? root;
  const flush = () => {
    if (run && run.lines.some((l) => l.trim())) siblings().push({ kind: 'markdown', line: run.line, lines: dedent(run.lines) });
    run = undefined;
  };
  const blockStart = (i: number) => !run || !run.lines[run.lines.length - 1]?.trim() || i === 0;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trimStart();
    const fence = FENCE_OPEN.exec(line);
    if (fence && !(fence[1]!.startsWith('`') && fence[2]!.includes('`'))) {
      flush();
      const marker = fence[1]!;
      let end = i + 1;
      while (end < lines.length && !closesFence(lines[end]!, marker)) end++;
      siblings().push({ kind: 'code', line: i, text: dedent(lines.slice(i, Math.min(end + 1, lines.length))).join('\n') });
      i = end;
      continue;
    }
    if (stack.length === 0 && /^(import|export)\s/.test(line) && blockStart(i)) {
      flush();
      while (i + 1 < lines.length && lines[i + 1]!.trim()) i++;
      continue;
    }
    if (trimmed.startsWith('{') && blockStart(i)) {
      const end = skipExpression(src, lineStarts[i]! + line.length - trimmed.length);
      if (end < 0) throw new MdxFlowError('an expression { … } is never closed', i);
      const last = lineAt(end - 1);
      if (!src.slice(end, lineStarts[last]! + lines[last]!.length).trim()) {
        flush();
        i = last;
        continue;
      }
    }
    if (trimmed.startsWith('<')) {
      const tags = tagLine(src, lineStarts[i]! + line.length - trimmed.length);
      if (tags) {
        flush();
        for (const tag of tags.tags) {
          if (tag.closing) {
            const open = stack.pop();
            if (!open) throw new MdxFlowError(`closing tag </${tag.name}> has no opening tag`, i);
            if (open.name !== tag.name) {
              throw new MdxFlowError(`expected a closing tag for <${open.name}> (line ${open.line + 1}) before </${tag.name}>`, i);
            }
            continue;
          }
          const element: JsxElement = { kind: 'element', line: i, name: tag.name, attributes: tag.attributes, children: [] };
          siblings().push(element);
          if (!tag.selfClosing) stack.push(element);
          // Readers of the tree walk it recursively: a page nested deeper than any layout needs is refused, not a stack overflow.
          if (stack.length > MAX_ELEMENT_DEPTH) throw new MdxFlowError(`components are nested more than ${MAX_ELEMENT_DEPTH} deep (<${tag.name}>); flatten the page`, i);
        }
        i = lineAt(tags.end - 1);
        continue;
      }
    }
    if (!run) run = { line: i, lines: [] };
    run.lines.push(line);
  }
  flush();
  const open = stack.pop();
  if (open) throw new MdxFlowError(`expected a closing tag for <${open.name}> (line ${open.line + 1})`, open.line);
  return root;
}

function closesFence(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed === marker[0]!.repeat(trimmed.length);
}

/** Tags that fill their lines on their own (only whitespace after the last one), else undefined. */
function tagLine(src: string, at: number): { tags: NonNullable<ReturnType<typeof readJsxTag>>[]; end: number } | undefined {
  const tags = [];
  let i = at;
  for (;;) {
    const tag = readJsxTag(src, i);
    if (!tag) return undefined;
    tags.push(tag);
    i = tag.end;
    while (src[i] === ' ' || src[i] === '\t') i++;
    if (i >= src.length || src[i] === '\n') return { tags, end: i };
    if (src[i] !== '<') return undefined;
  }
}

/** Removes the indentation all non-blank lines share. */
function dedent(lines: string[]): string[] {
  let common = Infinity;
  for (const line of lines) {
    if (!line.trim()) continue;
    common = Math.min(common, line.length - line.trimStart().length);
  }
  if (!Number.isFinite(common) || common === 0) return lines;
  return lines.map((line) => line.slice(Math.min(common, line.length - line.trimStart().length)));
}
