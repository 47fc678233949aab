import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { readFrontmatter } from './frontmatter.js';
import { PageSyntaxError } from './parse-page.js';

const mdx = unified().use(remarkParse).use(remarkMdx).freeze();

/** The line of a parser message (VFileMessage): `line`, else the start of `place` for errors spanning a range. */
function errorLine(err: unknown): number | undefined {
  if (!err || typeof err !== 'object') return undefined;
  if ('line' in err && typeof err.line === 'number') return err.line;
  const place = 'place' in err ? err.place : undefined;
  if (place && typeof place === 'object') {
    if ('line' in place && typeof place.line === 'number') return place.line;
    const start = 'start' in place ? place.start : undefined;
    if (start && typeof start === 'object' && 'line' in start && typeof start.line === 'number') return start.line;
  }
  // micromark-extension-mdx-jsx reports unclosed tags as "(line:col-line:col)" in the reason only.
  const m = err instanceof Error ? /\((\d+):\d+(?:-\d+:\d+)?\)/.exec(err.message) : null;
  return m ? Number(m[1]) : undefined;
}

/** Braces inside braces, at most, outside code fences: beyond any expression a page needs. */
export const MAX_EXPRESSION_DEPTH = 100;

/**
 * The 1-based line where braces first nest deeper than MAX_EXPRESSION_DEPTH, outside fenced code;
 * undefined when they never do. The compiler's parser takes time that grows with the square of
 * such nesting (a 32 KB page of braces held the worker for 38 s), so it never sees one.
 */
function deepExpression(body: string): number | undefined {
  const lines = body.split('\n');
  let fence: string | undefined;
  let depth = 0;
  for (const [i, line] of lines.entries()) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker?.startsWith(fence)) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    for (const ch of line) {
      if (ch === '{' && ++depth > MAX_EXPRESSION_DEPTH) return i + 1;
      if (ch === '}' && depth > 0) depth--;
    }
  }
  return undefined;
}

/**
 * The MDX compiler's own grammar (JSX attributes, JavaScript expressions),
 * stricter and far slower than `parsePage`: the agent runs it on the pages it
 * changed before pushing, so a page Mintlify would fail to build never ships.
 */
export function checkMdxGrammar(source: string): PageSyntaxError | undefined {
  const head = readFrontmatter(source);
  const deep = deepExpression(head.body);
  if (deep !== undefined) return new PageSyntaxError(`MDX syntax error: expressions { … } are nested more than ${MAX_EXPRESSION_DEPTH} deep`, head.bodyLine + deep);
  try {
    mdx.parse(head.body);
    return undefined;
  } catch (err) {
    const line = errorLine(err);
    const reason = err instanceof Error && 'reason' in err && typeof err.reason === 'string' ? err.reason : String(err);
    return new PageSyntaxError(`MDX syntax error: ${reason}`, line === undefined ? 0 : head.bodyLine + line);
  }
}
