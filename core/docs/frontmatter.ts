import YAML from 'yaml';

export type Frontmatter = Record<string, unknown>;

/** A problem with a page's source, with the 1-based line of the file it sits on. */
export interface PageProblem {
  line: number;
  message: string;
}

export interface PageHead {
  frontmatter: Frontmatter;
  /** The source after the frontmatter block. */
  body: string;
  /** Lines of the file before the body (0 without frontmatter). */
  bodyLine: number;
  problem?: PageProblem;
}

const FENCE = /^---[ \t]*$/;

/**
 * Splits the YAML frontmatter off a page and reads it, without touching the
 * body, so a page that leaves the index (`noindex`) costs only this. The block
 * is the one Mintlify reads: `---` on the first line up to the next `---` line.
 */
export function readFrontmatter(source: string): PageHead {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const firstEnd = text.indexOf('\n');
  if (!FENCE.test((firstEnd < 0 ? text : text.slice(0, firstEnd)).replace(/\r$/, ''))) return { frontmatter: {}, body: text, bodyLine: 0 };
  let at = firstEnd + 1;
  let line = 1;
  while (firstEnd >= 0 && at <= text.length) {
    const end = text.indexOf('\n', at);
    const current = (end < 0 ? text.slice(at) : text.slice(at, end)).replace(/\r$/, '');
    line++;
    if (FENCE.test(current)) {
      const yaml = text.slice(firstEnd + 1, at);
      const body = end < 0 ? '' : text.slice(end + 1);
      return { ...parseYaml(yaml), body, bodyLine: line };
    }
    if (end < 0) break;
    at = end + 1;
  }
  return {
    frontmatter: {},
    body: text,
    bodyLine: 0,
    problem: { line: 1, message: 'frontmatter starts with --- but is never closed with ---' },
  };
}

function parseYaml(yaml: string): { frontmatter: Frontmatter; problem?: PageProblem } {
  if (!yaml.trim()) return { frontmatter: {} };
  const doc = YAML.parseDocument(yaml);
  const first = doc.errors[0];
  if (first) {
    // yaml counts lines of the block from 1; +1 for the opening fence line.
    const line = (first.linePos?.[0]?.line ?? 0) + 1;
    return { frontmatter: {}, problem: { line, message: `frontmatter is not valid YAML: ${first.message.split('\n')[0]}` } };
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return { frontmatter: {} };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { frontmatter: {}, problem: { line: 1, message: 'frontmatter must be a YAML mapping of keys to values' } };
  }
  return { frontmatter: { ...data } };
}

/** A frontmatter string (numbers too: `version: 2`), trimmed; undefined when absent or empty. */
export function stringField(data: Frontmatter, key: string): string | undefined {
  const value = data[key];
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A frontmatter list, written as a YAML list or a comma-separated string. */
export function listField(data: Frontmatter, key: string): string[] {
  const value = data[key];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (typeof value === 'string' && value) return value.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}

/** `true`, `"true"` and `yes` all mean true in hand-written frontmatter. */
export function flagField(data: Frontmatter, key: string): boolean | undefined {
  const value = data[key];
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (/^(true|yes)$/i.test(value.trim())) return true;
    if (/^(false|no)$/i.test(value.trim())) return false;
  }
  return undefined;
}
