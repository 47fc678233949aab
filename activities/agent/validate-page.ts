import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import YAML from 'yaml';

/** A link target found in a page, with the line it sits on. */
export interface PageLink {
  url: string;
  line: number | undefined;
}

export interface ParsedPage {
  errors: string[];
  links: PageLink[];
}

interface MdNode {
  type: string;
  url?: unknown;
  value?: unknown;
  children?: MdNode[];
  position?: { start: { line: number } };
}

const mdParser = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).freeze();
const mdxParser = unified().use(remarkParse).use(remarkMdx).use(remarkFrontmatter, ['yaml']).use(remarkGfm).freeze();

function collect(node: MdNode, out: MdNode[]): void {
  out.push(node);
  for (const child of node.children ?? []) collect(child, out);
}

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

/** Parses one Markdown/MDX page with the real parser: syntax, frontmatter YAML, and its link targets. */
export function parsePage(relPath: string, text: string): ParsedPage {
  const parser = relPath.endsWith('.mdx') ? mdxParser : mdParser;
  let tree: MdNode;
  try {
    tree = parser.parse(text);
  } catch (err) {
    const line = errorLine(err);
    const where = line ? `:${line}` : '';
    const reason = err instanceof Error && 'reason' in err && typeof err.reason === 'string' ? err.reason : String(err);
    return { errors: [`${relPath}${where}: ${relPath.endsWith('.mdx') ? 'MDX' : 'Markdown'} syntax error: ${reason}`], links: [] };
  }
  const nodes: MdNode[] = [];
  collect(tree, nodes);
  const errors: string[] = [];
  const yamlNode = nodes.find((n) => n.type === 'yaml');
  if (yamlNode && typeof yamlNode.value === 'string') {
    const doc = YAML.parseDocument(yamlNode.value);
    if (doc.errors.length > 0) {
      const first = doc.errors[0]!;
      const line = (first.linePos?.[0]?.line ?? 0) + 1;
      errors.push(`${relPath}:${line}: frontmatter is not valid YAML: ${first.message.split('\n')[0]}`);
    } else if (doc.contents !== null && !YAML.isMap(doc.contents)) {
      errors.push(`${relPath}:1: frontmatter must be a YAML mapping of keys to values`);
    }
  } else if (/^---\r?\n/.test(text) && !yamlNode) {
    errors.push(`${relPath}:1: frontmatter starts with --- but is never closed with ---`);
  }
  const links = nodes
    .filter((n) => (n.type === 'link' || n.type === 'definition') && typeof n.url === 'string')
    .map((n) => ({ url: String(n.url), line: n.position?.start.line }));
  return { errors, links };
}
