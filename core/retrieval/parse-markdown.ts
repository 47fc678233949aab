import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import YAML from 'yaml';

// Processors are reusable and building one costs more than a small page's parse.
const base = () => unified().use(remarkParse).use(remarkFrontmatter, ['yaml']);
const PROCESSORS = {
  markdown: base(),
  gfm: base().use(remarkGfm),
  mdx: base().use(remarkMdx),
  gfmMdx: base().use(remarkGfm).use(remarkMdx),
};

/**
 * GFM costs about a third of a parse. Its tables, strikethrough, task lists
 * and footnotes all need one of these characters; a bare URL (autolink
 * literal) without it stays the same text either way, and chunks are source slices.
 */
const MAY_USE_GFM = /\||~|\[\^|^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]/m;

function processorFor(source: string, isMdx: boolean) {
  const gfm = MAY_USE_GFM.test(source);
  if (isMdx) return gfm ? PROCESSORS.gfmMdx : PROCESSORS.mdx;
  return gfm ? PROCESSORS.gfm : PROCESSORS.markdown;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export interface ParsedMarkdown {
  tree: Root;
  frontmatter: Record<string, unknown>;
  /** The source without its frontmatter block. */
  body: string;
}

/** A page that cannot be read: its path and the reason go into the indexing report. */
export class BrokenPageError extends Error {
  override name = 'BrokenPageError';
}

/** Parses Markdown (or MDX with `isMdx`) and its YAML frontmatter; throws BrokenPageError with the reason. */
export function parseMarkdown(source: string, isMdx: boolean): ParsedMarkdown {
  let tree: Root;
  try {
    tree = processorFor(source, isMdx).parse(source);
  } catch (err) {
    throw new BrokenPageError(`cannot parse ${isMdx ? 'MDX' : 'Markdown'}: ${messageOf(err)}`);
  }
  const first = tree.children[0];
  if (first?.type !== 'yaml') return { tree, frontmatter: {}, body: source };
  let data: unknown;
  try {
    data = YAML.parse(first.value);
  } catch (err) {
    throw new BrokenPageError(`invalid frontmatter: ${messageOf(err).split('\n')[0]}`);
  }
  const frontmatter = typeof data === 'object' && data !== null && !Array.isArray(data) ? { ...data } : {};
  const end = first.position?.end.offset ?? 0;
  return { tree, frontmatter, body: source.slice(end).replace(/^\s*\n/, '') };
}

export function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

export function listField(data: Record<string, unknown>, key: string): string[] {
  const value = data[key];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (typeof value === 'string' && value) return value.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}
