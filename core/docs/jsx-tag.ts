/** One JSX tag of an MDX page: `<Card title="A" href="/a">`, `</Card>`, `<Icon icon="x" />`, `<>`. */
export interface JsxTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Attributes with a string value (`title="A"`); expression values are skipped. */
  attributes: Record<string, string>;
  /** Offset just past the `>`. */
  end: number;
}

const NAME_START = /[A-Za-z_$]/;
const NAME_CHAR = /[\w$.:-]/;

function skipSpace(src: string, at: number): number {
  while (at < src.length && /\s/.test(src[at]!)) at++;
  return at;
}

/** Offset past a `{…}` expression starting at `at`, with strings and nested braces; -1 if it never closes. */
export function skipExpression(src: string, at: number): number {
  let depth = 0;
  for (let i = at; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const close = src.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Reads the tag starting at `src[at] === '<'`; undefined when the text there is not a JSX tag. */
export function readJsxTag(src: string, at: number): JsxTag | undefined {
  let i = skipSpace(src, at + 1);
  const closing = src[i] === '/';
  if (closing) i = skipSpace(src, i + 1);
  let name = '';
  if (NAME_START.test(src[i] ?? '')) {
    const start = i;
    while (i < src.length && NAME_CHAR.test(src[i]!)) i++;
    name = src.slice(start, i);
  } else if (src[i] !== '>') return undefined;
  const attributes: Record<string, string> = {};
  for (;;) {
    i = skipSpace(src, i);
    const c = src[i];
    if (c === undefined) return undefined;
    if (c === '>') return { name, closing, selfClosing: false, attributes, end: i + 1 };
    if (c === '/') {
      i = skipSpace(src, i + 1);
      return src[i] === '>' && !closing ? { name, closing, selfClosing: true, attributes, end: i + 1 } : undefined;
    }
    if (c === '{') {
      i = skipExpression(src, i);
      if (i < 0) return undefined;
      continue;
    }
    if (!NAME_START.test(c) || closing) return undefined;
    const start = i;
    while (i < src.length && NAME_CHAR.test(src[i]!)) i++;
    const key = src.slice(start, i);
    i = skipSpace(src, i);
    if (src[i] !== '=') continue;
    i = skipSpace(src, i + 1);
    const quote = src[i];
    if (quote === '"' || quote === "'") {
      const close = src.indexOf(quote, i + 1);
      if (close < 0) return undefined;
      attributes[key] = src.slice(i + 1, close);
      i = close + 1;
    } else if (quote === '{') {
      i = skipExpression(src, i);
      if (i < 0) return undefined;
    } else return undefined;
  }
}

/**
 * Why the components written inside MDX text do not pair up (`Some <b>bold`),
 * or undefined when they do. Inline code spans are left alone.
 */
export function unpairedInlineTag(text: string): string | undefined {
  if (!text.includes('<')) return undefined;
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') {
      let ticks = 1;
      while (text[i + ticks] === '`') ticks++;
      const close = text.indexOf('`'.repeat(ticks), i + ticks);
      i = close < 0 ? i + ticks - 1 : close + ticks - 1;
    } else if (c === '\\') i++;
    else if (c === '<') {
      const tag = readJsxTag(text, i);
      if (!tag) continue;
      i = tag.end - 1;
      if (tag.selfClosing) continue;
      if (!tag.closing) open.push(tag.name);
      else if (open.pop() !== tag.name) return `closing tag </${tag.name}> does not match an open tag`;
    }
  }
  return open.length > 0 ? `expected a closing tag for <${open[open.length - 1]}>` : undefined;
}

/**
 * Removes what a reader does not see from MDX text: component tags (their
 * text stays) and `{…}` expressions. Inline code spans are left alone.
 */
export function stripInlineMdx(text: string): string {
  if (!text.includes('<') && !text.includes('{')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '`') {
      let ticks = 1;
      while (text[i + ticks] === '`') ticks++;
      const fence = '`'.repeat(ticks);
      const close = text.indexOf(fence, i + ticks);
      const end = close < 0 ? i + ticks : close + ticks;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '<') {
      const tag = readJsxTag(text, i);
      if (tag) {
        i = tag.end;
        continue;
      }
    } else if (c === '{') {
      const end = skipExpression(text, i);
      if (end > 0) {
        i = end;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}
