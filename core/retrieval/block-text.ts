import type { Nodes } from 'mdast';

/**
 * The Markdown text of a block as a reader should see it: the source slice,
 * except that MDX components keep their text content and lose their markup,
 * and MDX imports, exports and expressions disappear.
 */
export function blockText(node: Nodes, source: string): string {
  switch (node.type) {
    case 'yaml':
    case 'mdxjsEsm':
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      return '';
    case 'mdxJsxFlowElement': {
      const title = node.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === 'title');
      const heading = title && typeof title.value === 'string' ? `**${title.value}**\n\n` : '';
      const inner = node.children.map((c) => blockText(c, source).trim()).filter(Boolean).join('\n\n');
      return heading + inner;
    }
    case 'mdxJsxTextElement':
      return node.children.map((c) => blockText(c, source)).join('');
    default:
      break;
  }
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return '';
  // A block nested in an MDX component starts at its own column: its slice begins after that
  // indentation but its later lines keep it. Dedent them, or a code fence opens at column 0 and
  // closes indented, and the rest of the passage turns into code in every Markdown renderer.
  const indent = (node.position?.start.column ?? 1) - 1;
  const slice = (from: number, to: number) => dedent(source.slice(from, to), indent);
  if (!hasMdx(node)) return slice(start, end);
  // Keep the block's own Markdown and substitute each MDX descendant by its text.
  let out = '';
  let cursor = start;
  for (const child of 'children' in node ? node.children : []) {
    const cs = child.position?.start.offset;
    const ce = child.position?.end.offset;
    if (cs === undefined || ce === undefined || !hasMdx(child)) continue;
    out += slice(cursor, cs) + blockText(child, source);
    cursor = ce;
  }
  return out + slice(cursor, end);
}

/** Removes up to `columns` leading blanks from every line but the first. */
function dedent(text: string, columns: number): string {
  if (columns <= 0) return text;
  return text.replace(new RegExp(`\\n[ \\t]{0,${columns}}`, 'g'), '\n');
}

export function hasMdx(node: Nodes): boolean {
  if (node.type.startsWith('mdx')) return true;
  return 'children' in node && node.children.some((c) => hasMdx(c));
}

/** Whether a block holds a code block anywhere inside (then it is never cut). */
export function hasCode(node: Nodes): boolean {
  if (node.type === 'code') return true;
  return 'children' in node && node.children.some((c) => hasCode(c));
}
